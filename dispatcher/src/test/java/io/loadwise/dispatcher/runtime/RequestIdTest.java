package io.loadwise.dispatcher.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.loadwise.dispatcher.config.AccessLogConfig;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.LoggingConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.http.RequestIds;
import io.loadwise.dispatcher.logging.AccessLog;
import io.loadwise.dispatcher.logging.LoggingSetup;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.dispatcher.testsupport.Configs;
import io.loadwise.policy.PolicyRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * {@code X-Request-Id} through a real dispatcher, with the JSON access log ({@code logging.accessLog} in its object
 * form): the node, the client and the log line all see the same id, the client's when it is usable.
 */
class RequestIdTest {

    @TempDir
    Path dir;

    private final Logger access = ((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger(AccessLog.LOGGER);
    private final Level accessLevel = access.getLevel();
    private final LinkedBlockingQueue<String> nodeSaw = new LinkedBlockingQueue<>();
    private Path accessFile;
    private Transport transport;
    private HttpServer node;
    private Dispatcher dispatcher;

    @BeforeEach
    void start() throws Exception {
        node = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        node.createContext("/", exchange -> {
            if (exchange.getRequestHeaders().containsKey("X-Forwarded-For")) { // proxied, not a health check
                nodeSaw.add(String.valueOf(exchange.getRequestHeaders().get("X-Request-Id")));
            }
            byte[] body = "ok".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        node.start();
        accessFile = dir.resolve("access.json");
        LoadwiseConfig config = new LoadwiseConfig(Configs.config().admin(),
                new LoggingConfig(null, null, null, new AccessLogConfig(accessFile.toString(), null)), List.of(
                        http("shop", "127.0.0.1:" + node.getAddress().getPort()),
                        http("gone", Configs.deadAddress())));
        LoggingSetup.apply(config.logging(), null);
        RequestIds.enable(config.logging().requestIdOrDefault()); // what loadwise run does
        transport = new Transport(1);
        dispatcher = new Dispatcher(config, null, PolicyRegistry.load(), transport, new ModeListenerFactory());
        dispatcher.start("test-token", false);
    }

    private static ClusterConfig http(String name, String node) {
        return ClusterConfig.builder().name(name).mode(Mode.HTTP).listen("127.0.0.1:0").policy("round-robin")
                .connectTimeoutMs(1_000).connectAttempts(1).nodes(Configs.nodes(node)).build();
    }

    @AfterEach
    void stop() throws IOException {
        RequestIds.enable(false);
        if (dispatcher != null) {
            dispatcher.close();
        }
        if (transport != null) {
            transport.close();
        }
        node.stop(0);
        AccessLog.drain(5_000); // a late line of this test must not reach the next one's file
        Appender<ILoggingEvent> appender = access.getAppender("ACCESS");
        if (appender != null) {
            appender.stop();
            access.detachAppender(appender);
        }
        access.setLevel(accessLevel);
    }

    @Test
    void aMissingIdIsGeneratedAndTheNodeTheClientAndTheLogShareIt() throws Exception {
        String response = send("shop", "GET /cart?q=1 HTTP/1.1\r\nHost: x\r\nUser-Agent: t/1\r\nContent-Length: 3"
                + "\r\ntraceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\r\nConnection: close\r\n\r\nabc");
        String id = header(response, "x-request-id");
        assertTrue(id.matches("[0-9a-f]{32}"), id);
        assertEquals("[" + id + "]", nodeSaw.poll(10, TimeUnit.SECONDS));

        JsonNode line = awaitJsonLine();
        assertEquals(id, line.get("request_id").asText());
        assertEquals("127.0.0.1", line.get("client").asText());
        assertEquals("shop", line.get("cluster").asText());
        assertEquals("n1", line.get("node").asText());
        assertEquals("GET", line.get("method").asText());
        assertEquals("/cart?q=1", line.get("target").asText());
        assertEquals("HTTP/1.1", line.get("protocol").asText());
        assertEquals(200, line.get("status").asInt());
        assertEquals(3, line.get("bytes_in").asInt(), "the request body passed on");
        assertEquals(2, line.get("bytes_out").asInt(), "the response body sent back");
        assertEquals("t/1", line.get("user_agent").asText());
        assertTrue(line.get("referer").isNull());
        assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", line.get("trace_id").asText());
        assertTrue(line.get("tr").asLong() >= 0 && line.get("tr").asLong() <= line.get("ta").asLong(), line.toString());
    }

    @Test
    void aUsableIdIsKept() throws Exception {
        String response = send("shop", "GET / HTTP/1.1\r\nHost: x\r\nX-Request-Id: abc-123_~!\r\n"
                + "Connection: close\r\n\r\n");
        assertEquals("abc-123_~!", header(response, "x-request-id"));
        assertEquals("[abc-123_~!]", nodeSaw.poll(10, TimeUnit.SECONDS));
    }

    @Test
    void anUnusableIdIsReplaced() throws Exception {
        for (String bad : List.of("a,b", "a\tb", "x".repeat(129), "caf\u00e9")) {
            String response = send("shop", "GET / HTTP/1.1\r\nHost: x\r\nX-Request-Id: " + bad
                    + "\r\nConnection: close\r\n\r\n");
            String id = header(response, "x-request-id");
            assertTrue(id.matches("[0-9a-f]{32}"), bad + " became " + id);
            assertEquals("[" + id + "]", nodeSaw.poll(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void theDispatchersOwnAnswersCarryTheIdToo() throws Exception {
        String response = send("gone", "GET / HTTP/1.1\r\nHost: x\r\nX-Request-Id: mine\r\nConnection: close\r\n\r\n");
        assertTrue(response.startsWith("HTTP/1.1 502 "), response);
        assertEquals("mine", header(response, "x-request-id"));

        String rejected = send("shop", "GET / XTTP/1.1\r\nHost: x\r\n\r\n");
        assertTrue(rejected.startsWith("HTTP/1.1 400 "), rejected);
        assertTrue(header(rejected, "x-request-id").matches("[0-9a-f]{32}"), rejected);
    }

    @Test
    void switchedOffNothingIsAdded() throws Exception {
        RequestIds.enable(false);
        String response = send("shop", "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertEquals(null, header(response, "x-request-id"));
        assertEquals("null", nodeSaw.poll(10, TimeUnit.SECONDS));
        assertNotEquals("", response);
    }

    private JsonNode awaitJsonLine() throws IOException {
        Await.until("a JSON access log line", () -> {
            try {
                return Files.exists(accessFile) && !Files.readAllLines(accessFile).isEmpty();
            } catch (IOException e) {
                return false;
            }
        });
        List<String> lines = Files.readAllLines(accessFile);
        assertEquals(1, lines.size(), lines.toString());
        return new ObjectMapper().readTree(lines.get(0));
    }

    /** The value of {@code name} in the response head, or null. */
    private static String header(String response, String name) {
        for (String line : response.substring(0, response.indexOf("\r\n\r\n")).split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
                return line.substring(colon + 1).trim();
            }
        }
        return null;
    }

    private String send(String cluster, String request) throws IOException {
        InetSocketAddress address = dispatcher.boundAddress(cluster);
        try (Socket s = new Socket(address.getAddress(), address.getPort())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
