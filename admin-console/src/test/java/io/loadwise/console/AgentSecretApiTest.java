package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import io.loadwise.console.testing.ApiClient;
import io.loadwise.console.testing.Await;
import io.loadwise.dispatcher.config.AgentSettings;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.wire.MetricsJson;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 18, item 1, through the admin API: a cluster's {@code agent.secret} is never returned, a
 * {@code PUT} of what {@code GET} returned keeps it, and an agent that refuses the dispatcher's secret
 * shows as {@code unauthorized}. Two real nodes whose agent paths want a secret, as the agent's do.
 */
class AgentSecretApiTest extends ApiTestBase {

    private static final String SECRET = "Zq7-agents-only";
    private final List<HttpServer> webNodes = new ArrayList<>();

    @BeforeEach
    void startWebNodes() throws IOException {
        // a has the cluster's secret, b another one
        for (String wanted : new String[] {SECRET, "b-has-another-secret"}) {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/", exchange -> {
                boolean agent = exchange.getRequestURI().getPath().equals("/loadwise-agent/metrics");
                if (agent && !wanted.equals(exchange.getRequestHeaders().getFirst("X-Loadwise-Secret"))) {
                    exchange.sendResponseHeaders(401, -1);
                    exchange.close();
                    return;
                }
                byte[] body = (agent ? MetricsJson.encode(System.currentTimeMillis(), Map.of("JVM_HEAP_USED%", 20.0),
                        Map.of()) : "<html>app</html>").getBytes(StandardCharsets.UTF_8);
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

    private String cluster(String name, String secret) {
        return """
                {"name": "%s", "mode": "http", "listen": "127.0.0.1:0", "policy": "jvm-aware",
                 "agentPollIntervalMs": 50, "agentExpiryMs": 200, "agentReprobeMs": 100,
                 "nodes": [{"name": "a", "address": "127.0.0.1:%d"}, {"name": "b", "address": "127.0.0.1:%d"}],
                 "agent": {"secret": "%s"}}
                """.formatted(name, webNodes.get(0).getAddress().getPort(), webNodes.get(1).getAddress().getPort(),
                secret);
    }

    private ClusterConfig inForce(String name) {
        return control.config().clustersOrEmpty().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void theSecretIsNeverReturnedAndAPutOfWhatGetReturnedKeepsIt() throws Exception {
        ApiClient.Response created = api.post("/api/clusters", cluster("shop", SECRET));
        assertEquals(201, created.status(), created.body());
        assertFalse(created.body().contains(SECRET), created.body());
        assertEquals("(hidden)", created.json().path("config").path("agent").path("secret").asText());
        for (String path : List.of("/api/clusters", "/api/clusters/shop", "/api/clusters/shop/nodes/a")) {
            ApiClient.Response read = api.get(path);
            assertEquals(200, read.status(), read.body());
            assertFalse(read.body().contains(SECRET), path + " returned the secret: " + read.body());
        }
        assertTrue(Files.readString(configFile).contains(SECRET), "the file keeps it");

        // Edit what GET returned and send it back: the mask stands for the secret in force.
        ObjectNode edited = (ObjectNode) api.get("/api/clusters/shop").json().path("config");
        edited.put("agentPollIntervalMs", 60);
        ApiClient.Response replaced = api.put("/api/clusters/shop", edited.toString());
        assertEquals(200, replaced.status(), replaced.body());
        assertFalse(replaced.body().contains(SECRET), replaced.body());
        assertEquals(SECRET, AgentSettings.secretOf(inForce("shop")));
        assertEquals(60, inForce("shop").agentPollIntervalMs());
        assertTrue(Files.readString(configFile).contains(SECRET));

        // Another value replaces it; no agent object removes it.
        edited.putObject("agent").put("secret", "a-new-secret-value");
        assertEquals(200, api.put("/api/clusters/shop", edited.toString()).status());
        assertEquals("a-new-secret-value", AgentSettings.secretOf(inForce("shop")));
        edited.remove("agent");
        assertEquals(200, api.put("/api/clusters/shop", edited.toString()).status());
        assertEquals(null, inForce("shop").agent());
    }

    @Test
    void theMaskIsNoSecretOfItsOwn() {
        ApiClient.Response refused = api.post("/api/clusters", cluster("shop", AgentSettings.HIDDEN));
        assertEquals(400, refused.status(), refused.body());
        assertTrue(refused.body().contains("agent.secret: '(hidden)' is what the API shows in place of a secret, not a "
                + "secret; give the real one"), refused.body());
        ApiClient.Response garbage = api.post("/api/clusters", cluster("shop", "two words"));
        assertEquals(400, garbage.status(), garbage.body());
        assertTrue(garbage.body().contains("agent.secret: character 4 is not allowed"), garbage.body());
        assertFalse(garbage.body().contains("two words"), "an error repeats the secret: " + garbage.body());
    }

    @Test
    void anAgentThatRefusesTheSecretShowsAsUnauthorizedAndItsNodeKeepsServing() {
        assertEquals(201, api.post("/api/clusters", cluster("shop", SECRET)).status());
        Await.until(() -> "unauthorized".equals(api.get("/api/clusters/shop/nodes/b").json().path("agent")
                .path("state").asText()), "b's agent refused the poll");
        JsonNode b = api.get("/api/clusters/shop").json().path("nodes").get(1);
        assertEquals("b", b.path("name").asText());
        assertTrue(b.path("agent").path("problem").asText().contains("wrong or missing agent secret"), b.toString());
        assertTrue(b.path("healthy").asBoolean(), "a refusing agent takes no node out: " + b);
        JsonNode a = api.get("/api/clusters/shop").json().path("nodes").get(0);
        Await.until(() -> "ok".equals(api.get("/api/clusters/shop/nodes/a").json().path("agent").path("state")
                .asText()), "a's agent answers the secret");
        assertEquals("a", a.path("name").asText());
    }
}
