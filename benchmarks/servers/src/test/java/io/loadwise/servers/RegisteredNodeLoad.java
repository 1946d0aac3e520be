package io.loadwise.servers;

import org.awaitility.Awaitility;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.sun.net.httpserver.HttpServer;
import io.loadwise.dispatcher.runtime.Dispatcher;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * What the registration tests of the real servers share: an always-up second node of the same context (a
 * stub HTTP server in the test JVM that registers itself through the same REST call an agent makes), and
 * clients looping a GET through the dispatcher, counting every answer but 200 and every I/O error as failed,
 * and which node answered (the stub answers {@code other}).
 */
final class RegisteredNodeLoad implements AutoCloseable {

    static final String STUB_NAME = "other";
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    private final Dispatcher dispatcher;
    private final String cluster;
    private final String path;
    private HttpServer stub;
    private final AtomicBoolean running = new AtomicBoolean();
    final AtomicLong ok = new AtomicLong();
    final AtomicLong byServer = new AtomicLong();
    final AtomicLong failed = new AtomicLong();
    final List<String> problems = Collections.synchronizedList(new ArrayList<>());
    private final List<Thread> clients = new ArrayList<>();

    RegisteredNodeLoad(Dispatcher dispatcher, String cluster, String path) {
        this.dispatcher = dispatcher;
        this.cluster = cluster;
        this.path = path;
    }

    /** Starts the stub and registers it for {@code context} with the registration token. */
    void registerStub(String context, String registrationToken) throws Exception {
        stub = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        stub.createContext("/", exchange -> {
            byte[] body = STUB_NAME.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(exchange.getRequestURI().getPath().contains("loadwise-agent") ? 404 : 200,
                    body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        stub.start();
        String json = "{\"name\":\"" + STUB_NAME + "\",\"address\":\"127.0.0.1:" + stub.getAddress().getPort()
                + "\",\"route\":\"" + STUB_NAME + "\",\"contexts\":[\"" + context + "\"]}";
        URI uri = URI.create("http://127.0.0.1:" + dispatcher.controlPlane().port() + "/api/clusters/" + cluster
                + "/registrations");
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + registrationToken).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200 && r.statusCode() != 201) {
            fail("stub registration refused: " + r.statusCode() + " " + r.body());
        }
    }

    void start(int clientCount) {
        running.set(true);
        for (int i = 0; i < clientCount; i++) {
            Thread t = new Thread(() -> {
                while (running.get()) {
                    try {
                        HttpResponse<String> r = get(path, null);
                        if (r.statusCode() == 200) {
                            ok.incrementAndGet();
                            if (!STUB_NAME.equals(r.body())) {
                                byServer.incrementAndGet();
                            }
                        } else {
                            failed.incrementAndGet();
                            problems.add(r.statusCode() + " " + r.body().strip());
                        }
                    } catch (IOException e) {
                        failed.incrementAndGet();
                        problems.add(e.toString());
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "load-" + i);
            t.start();
            clients.add(t);
        }
    }

    HttpResponse<String> get(String requestPath, String cookie) throws IOException, InterruptedException {
        URI uri = URI.create("http://127.0.0.1:" + dispatcher.boundAddress(cluster).getPort() + requestPath);
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30));
        if (cookie != null) {
            b.header("Cookie", cookie);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    String firstProblems() {
        synchronized (problems) {
            return problems.isEmpty() ? "" : "; first " + problems.subList(0, Math.min(5, problems.size()));
        }
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        for (Thread t : clients) {
            t.join(15_000);
        }
        if (stub != null) {
            stub.stop(0);
        }
    }

    static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        Awaitility.await(what).atMost(timeout).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                .until(condition::getAsBoolean);
    }

    static void assertNoFailure(long failedCount, String figures) {
        assertEquals(0, failedCount, figures);
    }
}
