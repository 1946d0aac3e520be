package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.sun.net.httpserver.HttpServer;
import io.loadwise.console.testing.ApiClient;
import io.loadwise.policy.AgentSample;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every answer of the REST API and {@code /metrics} that shows cluster or node state, compared field by
 * field, in order, with a recorded copy: a TCP cluster with a disabled node, an HTTP cluster with a
 * draining node and a fresh agent sample on the other, and an HTTP cluster under jvm-aware whose node runs
 * no agent, after traffic of known size. Values that differ from run to run (ports, ages, clocks, poll
 * counts, timings, latency histograms' buckets and sums) are replaced by {@code <varies>}, and only when
 * present, so null-or-not stays compared.
 *
 * <p>After a deliberate change to the API, rewrite the recording with
 * {@code -Dloadwise.golden.write=true -Dtest=ApiGoldenTest} and review its diff.
 */
class ApiGoldenTest extends ApiTestBase {

    private static final Path GOLDEN = Path.of("src/test/resources/golden/api-views.txt");
    /** Clocks, ages, poll counts and timings of the traffic. */
    private static final Set<String> VARYING_FIELDS = Set.of("lastSampleAgeMs", "ageMs", "epochMillis", "pollsOk",
            "pollsFailed", "malformedReports", "NODE_NMA_RSPS_TIME", "NODE_AVAILABILITY%", "latencyMillis",
            "wt1Millis", "wt2Millis", "ptMillis", "slowdown", "startedAt", "deadlineAt", "time", "totalMs",
            "requestId");
    /**
     * Figures of the last second, which may or may not hold the traffic: even whether they are null varies.
     * So do Table 2 figures ({@code TD_AVE_*}) and every average over the history.
     */
    private static final Set<String> VARYING_EVEN_IF_NULL = Set.of("recentResponseTimeMillis", "TAP_RQST_LASTTIME");
    /** Ports are chosen by the system; the host part stays compared. */
    private static final Set<String> ADDRESS_FIELDS = Set.of("bound", "address", "client");
    private static final Pattern VARYING_SAMPLES = Pattern.compile("(?m)^((?:loadwise_agent_sample_age_seconds"
            + "|loadwise_node_policy_metric|loadwise_cluster_last_second|loadwise_node_last_second"
            + "|loadwise_[a-z_]+_seconds_(?:bucket|sum))\\{.*\\}) .*$"); // which bucket a request falls in varies
    private static final Set<String> BUILT_IN_POLICIES = Set.of("adaptive", "f5-dynamic-ratio",
            "fastest-response-time", "jvm-aware", "jvm-aware-classic", "least-connections", "least-loaded",
            "least-sessions", "orca-wrr", "p2c-least-request", "probed-response-time", "random", "round-robin",
            "rr-to-lc", "static-wrr", "weighted-least-connections");
    private static final long SAMPLE_TIME = 1_763_769_600_000L;

    private final List<HttpServer> webNodes = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder()
            // HTTP/1.1 only: the JDK client otherwise offers Upgrade: h2c, and whether its second request
            // rides the upgraded connection (HPACK-compressed headers) made bytesOut 281 or 311.
            .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();

    @AfterEach
    void stopWebNodes() {
        webNodes.forEach(s -> s.stop(0));
    }

    @Test
    void everyStateAnswerIsAsRecorded() throws Exception {
        long testStart = System.currentTimeMillis();
        api.get("/api/requests?limit=1"); // the ring is kept only while someone watches: start watching first
        // Built-in policies only: the recording must not depend on the test doubles' wording.
        control.switchPolicy("web", "least-connections", Map.of());
        create("""
                {"name": "shop", "mode": "http", "listen": "127.0.0.1:0", "policy": "round-robin",
                 "affinity": "cookie", "agentExpiryMs": 600000,
                 "nodes": [{"name": "a", "address": "127.0.0.1:%d", "route": "ra", "domain": "east"},
                           {"name": "b", "address": "127.0.0.1:%d", "weight": 3}]}
                """.formatted(webNode(), webNode()));
        create("""
                {"name": "agents", "mode": "http", "listen": "127.0.0.1:0", "policy": "jvm-aware",
                 "policyOptions": {"heapThreshold": 90}, "agentPollIntervalMs": 50, "agentExpiryMs": 200,
                 "agentReprobeMs": 100, "nodes": [{"name": "x", "address": "127.0.0.1:%d"}]}
                """.formatted(webNode()));
        awaitTrue(() -> "malformed metrics document".equals(
                api.get("/api/clusters/agents/nodes/x").json().path("agent").path("problem").asText()),
                "the agent-less node polled and found unreadable");
        control.cluster("shop").node("a").updateAgentSample(new AgentSample(SAMPLE_TIME, AgentSample.Source.POLL,
                Map.of("JVM_HEAP_USED%", 41.5, "OS_CPU_USED%", 12.0, "AMX_SESSIONS_ACT", 7.0)));
        // Node flags, and traffic that only one node of each cluster can take, so every count is known.
        assertEquals(200, api.put("/api/clusters/web/nodes/n1", "{\"enabled\": false}").status());
        assertEquals(200, api.put("/api/clusters/shop/nodes/b", "{\"drain\": true}").status());
        for (String word : List.of("one", "two", "three")) {
            assertEquals(word, roundTrip(control.boundAddress("web"), word));
        }
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + control.boundAddress("shop").getPort() + "/page")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response.body());
        }
        awaitTrue(() -> control.totals("web").completed() == 3 && control.totals("web").activeConnections() == 0
                && control.totals("shop").completed() == 2 && control.totals("shop").activeRequests() == 0,
                "every tunnel and request finished");
        // a draining node's agent is polled under any policy: wait for b's first poll (its node has no agent), so the
        // recording never depends on whether that poll came before it
        awaitTrue(() -> "malformed metrics document".equals(api.get("/api/clusters/shop/nodes/b/metrics").json()
                .path("agent").path("lastError").asText()), "the draining node's agent polled");
        sampleMetrics(); // twice: a cluster's first sample only sets its baseline
        sampleMetrics();
        // the recent-request ring is the JVM's: earlier tests' clusters web and shop are in it too, so wait for this
        // test's own rows (begun after its start) and show only them (limit)
        awaitTrue(() -> recentSince(testStart, "web") == 3 && recentSince(testStart, "shop") == 2,
                "this test's requests in the recent-request ring");

        StringBuilder answers = new StringBuilder();
        for (String path : List.of("/api/policies", "/api/clusters", "/api/clusters/web", "/api/clusters/shop/policy",
                "/api/clusters/agents/policy", "/api/clusters/web/nodes/n2", "/api/clusters/shop/nodes/a",
                "/api/clusters/shop/nodes/b", "/api/clusters/agents/nodes/x", "/api/clusters/web/nodes/n1/metrics",
                "/api/clusters/shop/nodes/a/metrics", "/api/clusters/shop/nodes/b/metrics",
                "/api/clusters/agents/nodes/x/metrics", "/api/clusters/web/stats", "/api/clusters/shop/stats",
                "/api/clusters/agents/stats", "/api/requests?cluster=web&limit=3",
                "/api/requests?cluster=shop&limit=2", "/metrics")) {
            ApiClient.Response response = api.get(path);
            assertEquals(200, response.status(), path + ": " + response.body());
            answers.append("GET ").append(path).append('\n').append(normalise(path, response.body())).append("\n\n");
        }
        if (Boolean.getBoolean("loadwise.golden.write")) {
            Files.createDirectories(GOLDEN.getParent());
            Files.writeString(GOLDEN, answers);
            return;
        }
        assertEquals(Files.readString(GOLDEN), answers.toString());
    }

    private long recentSince(long since, String cluster) {
        return control.recentRequests().stream().filter(r -> cluster.equals(r.cluster()) && r.startMillis() >= since)
                .count();
    }

    private void create(String body) {
        ApiClient.Response created = api.post("/api/clusters", body);
        assertEquals(201, created.status(), created.body());
    }

    /** A plain HTTP node without an agent: its agent path answers an HTML page. */
    private int webNode() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = "<html>no agent here</html>".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        webNodes.add(server);
        return server.getAddress().getPort();
    }

    private static String normalise(String path, String body) throws IOException {
        if (path.equals("/metrics")) {
            return VARYING_SAMPLES.matcher(body).replaceAll("$1 <varies>").strip();
        }
        JsonNode tree = JSON.readTree(body);
        if (path.equals("/api/policies")) {
            Iterator<JsonNode> policies = tree.elements();
            while (policies.hasNext()) {
                if (!BUILT_IN_POLICIES.contains(policies.next().path("id").asText())) {
                    policies.remove();
                }
            }
        }
        mask(tree, false);
        return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(tree);
    }

    private static void mask(JsonNode node, boolean everyValue) {
        if (node instanceof ObjectNode object) {
            Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                String key = field.getKey();
                JsonNode value = field.getValue();
                if (everyValue || VARYING_EVEN_IF_NULL.contains(key) || key.startsWith("TD_AVE_")) {
                    field.setValue(TextNode.valueOf("<varies>"));
                } else if (value.isNull() || value.isContainerNode()) {
                    mask(value, key.equals("averages"));
                } else if (VARYING_FIELDS.contains(key)) {
                    field.setValue(TextNode.valueOf("<varies>"));
                } else if (ADDRESS_FIELDS.contains(key)) {
                    field.setValue(TextNode.valueOf(value.asText().replaceAll(":[0-9]+$", ":<port>")));
                }
            }
        } else if (node instanceof ArrayNode array) {
            array.forEach(element -> mask(element, everyValue));
        }
    }
}
