package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.loadwise.console.testing.ApiClient;
import io.loadwise.console.testing.Await;
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
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /api/clusters/{name}} and {@code /nodes/{node}} show each node's agent state: an HTTP cluster
 * under jvm-aware over two real nodes without an agent (their agent path answers an HTML page).
 */
class AgentStateApiTest extends ApiTestBase {

    private final List<HttpServer> webNodes = new ArrayList<>();

    @BeforeEach
    void startWebNodes() throws IOException {
        for (String name : new String[] {"a", "b"}) {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/", exchange -> {
                byte[] body = ("<html>node " + name + "</html>").getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            server.start();
            webNodes.add(server);
        }
    }

    @AfterEach
    void stopWebNodes() {
        webNodes.forEach(s -> s.stop(0));
    }

    @Test
    void nodesWithoutAnAgentShowAsUnknownAndKeepServing() throws Exception {
        ApiClient.Response created = api.post("/api/clusters", """
                {"name": "shop", "mode": "http", "listen": "127.0.0.1:0", "policy": "jvm-aware",
                 "agentPollIntervalMs": 50, "agentExpiryMs": 200, "agentReprobeMs": 100,
                 "nodes": [{"name": "a", "address": "127.0.0.1:%d"}, {"name": "b", "address": "127.0.0.1:%d"}]}
                """.formatted(webNodes.get(0).getAddress().getPort(), webNodes.get(1).getAddress().getPort()));
        assertEquals(201, created.status(), created.body());
        Await.until(() -> {
            for (JsonNode node : api.get("/api/clusters/shop").json().path("nodes")) {
                if (!"malformed metrics document".equals(node.path("agent").path("problem").asText())) {
                    return false;
                }
            }
            return true;
        }, "both agents polled and found unreadable");

        for (JsonNode node : api.get("/api/clusters/shop").json().path("nodes")) {
            JsonNode agent = node.path("agent");
            assertEquals("unknown", agent.path("state").asText(), node.toString());
            assertTrue(agent.path("lastSampleAgeMs").isNull(), "no sample ever: " + agent);
            assertFalse(agent.has("ageMs"), "readers of the older field see no age: " + agent);
            assertTrue(node.path("healthy").asBoolean(), "a silent agent takes no node out: " + node);
            assertTrue(node.path("agentDown").asBoolean(), "kept for older clients: " + node);
        }
        JsonNode a = api.get("/api/clusters/shop/nodes/a").json();
        assertEquals("unknown", a.path("agent").path("state").asText(), a.toString());

        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        int port = control.boundAddress("shop").getPort();
        Set<String> answered = new HashSet<>();
        for (int i = 0; i < 10; i++) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response.body());
            answered.add(response.body());
        }
        assertEquals(Set.of("<html>node a</html>", "<html>node b</html>"), answered);
    }
}
