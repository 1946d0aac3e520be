package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.loadwise.console.testing.ApiClient;
import io.loadwise.wire.MetricsJson;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /api/clusters/{name}/nodes/{node}/metrics} over a real node that serves an agent metrics
 * document and piggybacks load reports: the poll fills the sample, a proxied response's header updates
 * it (and never reaches the client), and the answer names its source and age.
 */
class NodeMetricsApiTest extends ApiTestBase {

    private HttpServer webNode;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void startWebNode() throws IOException {
        webNode = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        webNode.createContext("/loadwise-agent/metrics", exchange -> reply(exchange.getResponseBody(), exchange,
                MetricsJson.encode(System.currentTimeMillis(),
                        Map.of("JVM_HEAP_USED%", 40.0, "OS_CPU_USED%", 12.5, "JVM_THREADS", 31.0), Map.of("jvm", "test")),
                null));
        webNode.createContext("/", exchange -> reply(exchange.getResponseBody(), exchange, "hello",
                "TEXT cpu_utilization=0.2,named_metrics.jvm_heap_used=0.61"));
        webNode.start();
    }

    private static void reply(OutputStream body, com.sun.net.httpserver.HttpExchange exchange, String text,
            String loadReport) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (loadReport != null) {
            exchange.getResponseHeaders().set("endpoint-load-metrics", loadReport);
        }
        exchange.sendResponseHeaders(200, bytes.length);
        try (body) {
            body.write(bytes);
        }
    }

    @AfterEach
    void stopWebNode() {
        webNode.stop(0);
    }

    @Test
    void reportsThePolledSampleThenThePiggybackedOneWithSourceAndAge() throws Exception {
        ApiClient.Response created = api.post("/api/clusters", """
                {"name": "shop", "mode": "http", "listen": "127.0.0.1:0", "policy": "jvm-aware",
                 "agentPollIntervalMs": 60000,
                 "nodes": [{"name": "a", "address": "127.0.0.1:%d"}]}
                """.formatted(webNode.getAddress().getPort()));
        assertEquals(201, created.status(), created.body());

        awaitTrue(() -> !api.get("/api/clusters/shop/nodes/a/metrics").json().path("sample").isNull(),
                "the first poll of the agent");
        JsonNode polled = api.get("/api/clusters/shop/nodes/a/metrics").json();
        assertEquals("poll", polled.path("sample").path("source").asText());
        assertEquals(40.0, polled.path("sample").path("metrics").path("JVM_HEAP_USED%").asDouble());
        assertEquals(31.0, polled.path("sample").path("metrics").path("JVM_THREADS").asDouble());
        assertTrue(polled.path("sample").path("ageMs").asLong() >= 0);
        assertTrue(polled.path("agent").path("pollsOk").asLong() >= 1);
        assertEquals(100.0, polled.path("policyMetrics").path("NODE_AVAILABILITY%").asDouble());
        assertFalse(polled.path("agentDown").asBoolean());

        int port = control.boundAddress("shop").getPort();
        HttpResponse<String> proxied = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/x"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, proxied.statusCode(), proxied.body());
        assertTrue(proxied.headers().firstValue("endpoint-load-metrics").isEmpty(), "load report reached the client");

        // Reports are parsed off the event loop (NodeMonitor.offerLoadReport), so the sample lands shortly
        // after the response: wait for it with a deadline rather than reading once.
        awaitTrue(() -> "piggyback".equals(api.get("/api/clusters/shop/nodes/a/metrics").json()
                .path("sample").path("source").asText()), "the piggybacked report applied");
        JsonNode piggybacked = api.get("/api/clusters/shop/nodes/a/metrics").json();
        JsonNode metrics = piggybacked.path("sample").path("metrics");
        // The agent is polled once at start, then every 60 s: this sample is the header's.
        assertEquals("piggyback", piggybacked.path("sample").path("source").asText(), piggybacked.toString());
        assertEquals(61.0, metrics.path("JVM_HEAP_USED%").asDouble(), 1e-9);
        assertEquals(20.0, metrics.path("OS_CPU_USED%").asDouble(), 1e-9);
        assertEquals(31.0, metrics.path("JVM_THREADS").asDouble(), "the polled metrics are kept");
        assertEquals(1, piggybacked.path("agent").path("piggybackReports").asLong());
        assertEquals(1, piggybacked.path("policyMetrics").path("TAP_NODE_SEL").asLong());
    }

    @Test
    void anUnknownNodeIs404() {
        ApiClient.Response missing = api.get("/api/clusters/web/nodes/nope/metrics");
        assertEquals(404, missing.status());
        assertTrue(missing.body().contains("no node named 'nope'"), missing.body());
    }
}
