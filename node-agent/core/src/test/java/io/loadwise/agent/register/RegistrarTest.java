package io.loadwise.agent.register;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The registrar against a real HTTP server standing in for the dispatcher's admin API and for the node's own
 * agent endpoint (the end-to-end test with the real dispatcher and Tomcat is RegistrationIT).
 */
class RegistrarTest {

    private HttpServer server;
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private final AtomicBoolean appServing = new AtomicBoolean();
    private final AtomicInteger answer = new AtomicInteger(201);

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getRawPath();
            int status;
            if (path.endsWith("/loadwise-agent/metrics")) {
                status = appServing.get() ? 200 : 404;
            } else {
                calls.add(exchange.getRequestMethod() + " " + path + " "
                        + exchange.getRequestHeaders().getFirst("Authorization") + " "
                        + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                status = exchange.getRequestMethod().equals("DELETE") ? 202 : answer.get();
            }
            byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private RegistrationSettings settings(long heartbeat) {
        String here = "127.0.0.1:" + server.getAddress().getPort();
        return new RegistrationSettings(URI.create("http://" + here), "web", "reg-token-0123456789", "n1", here,
                "127.0.0.1", "r1", List.of("/app"), heartbeat, 0);
    }

    private static void await(java.util.function.BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out waiting for " + what);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(10_000_000L);
        }
    }

    @Test
    void registersOnceTheApplicationServesHeartbeatsAndDeregistersOnClose() throws Exception {
        try (Registrar registrar = Registrar.start(settings(100), ServerFacts.fromJmx())) {
            assertFalse(registrar.awaitRegistered(Duration.ofMillis(600)), "no registration before the app serves");
            assertEquals(List.of(), calls);
            appServing.set(true);
            assertTrue(registrar.awaitRegistered(Duration.ofSeconds(10)));
            assertEquals("POST /api/clusters/web/registrations Bearer reg-token-0123456789 "
                    + "{\"name\":\"n1\",\"address\":\"" + settings(0).address() + "\",\"route\":\"r1\","
                    + "\"contexts\":[\"/app\"]}", calls.get(0));
            await(() -> registrar.successes() >= 3, "heartbeats");
        }
        String last = calls.get(calls.size() - 1);
        assertEquals("DELETE /api/clusters/web/registrations/n1 Bearer reg-token-0123456789 ", last);
    }

    @Test
    void aRefusalIsReportedAndTriedAgain() throws Exception {
        appServing.set(true);
        answer.set(403);
        try (Registrar registrar = Registrar.start(settings(100), ServerFacts.fromJmx())) {
            await(() -> calls.size() >= 2, "a second attempt");
            assertEquals(0, registrar.successes());
            assertEquals("403 refused: {}", registrar.lastProblem());
            answer.set(200);
            assertTrue(registrar.awaitRegistered(Duration.ofSeconds(10)));
        }
    }

    @Test
    void leaveDeregistersOnceStopsHeartbeatsAndRejoinRegistersAgain() throws Exception {
        appServing.set(true);
        try (Registrar registrar = Registrar.start(settings(50), ServerFacts.fromJmx())) {
            assertTrue(registrar.awaitRegistered(Duration.ofSeconds(10)));
            // two concurrent leaves (a shutdown hook and the server's own stop): one deregistration
            Thread other = new Thread(() -> registrar.leave(Duration.ofSeconds(2), 0, "test"));
            other.start();
            registrar.leave(Duration.ofSeconds(2), 0, "test");
            other.join(10_000);
            assertTrue(registrar.hasLeft());
            int successes = registrar.successes();
            long deletes = calls.stream().filter(c -> c.startsWith("DELETE")).count();
            assertEquals(1, deletes, calls.toString());
            String lastCall = calls.get(calls.size() - 1);
            assertTrue(lastCall.startsWith("DELETE"), "no heartbeat after the deregistration: " + calls);
            // no heartbeat while left: wait for what would be several heartbeat periods, then check none came
            long until = System.nanoTime() + 300_000_000L;
            await(() -> System.nanoTime() - until > 0, "three heartbeat periods");
            assertEquals(successes, registrar.successes(), "no registration while left");

            registrar.rejoin();
            assertFalse(registrar.hasLeft());
            await(() -> registrar.successes() > successes, "the registration after rejoining");
        }
        assertEquals(2, calls.stream().filter(c -> c.startsWith("DELETE")).count(), "close deregisters again");
    }
}
