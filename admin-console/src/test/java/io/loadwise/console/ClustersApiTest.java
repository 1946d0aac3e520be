package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadwise.console.api.ApiCall;
import io.loadwise.console.testing.ApiClient;
import io.loadwise.policy.AgentSample;
import io.loadwise.testsupport.TestFirstUsablePolicy;
import io.loadwise.testsupport.TestLastUsablePolicy;
import java.io.ByteArrayInputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

class ClustersApiTest extends ApiTestBase {

    private String newCluster(String name, String nodeAddress) {
        return """
                {"name": "%s", "mode": "tcp", "listen": "127.0.0.1:0", "policy": "%s",
                 "nodes": [{"name": "only", "address": "%s"}]}
                """.formatted(name, TestFirstUsablePolicy.ID, nodeAddress);
    }

    private static String details(ApiClient.Response response) {
        return response.json().path("details").toString();
    }

    @Test
    void listsClustersWithListenPolicyAndNodes() {
        ApiClient.Response response = api.get("/api/clusters");
        assertEquals(200, response.status(), response.body());
        assertEquals("application/json;charset=UTF-8", response.header("Content-Type").replace(" ", ""));
        JsonNode clusters = response.json();
        assertEquals(1, clusters.size());
        JsonNode web = clusters.get(0);
        assertEquals("web", web.path("name").asText());
        assertEquals("tcp", web.path("mode").asText());
        assertEquals("127.0.0.1:0", web.path("listen").path("configured").asText());
        InetSocketAddress bound = parse(web.path("listen").path("bound").asText());
        assertEquals(control.boundAddress("web").getPort(), bound.getPort());
        assertTrue(bound.getPort() > 0);
        assertEquals(TestFirstUsablePolicy.ID, web.path("policy").path("id").asText());
        assertTrue(web.path("balance").isNull(), "balance is HTTP-only");
        JsonNode n2 = web.path("nodes").get(1);
        assertEquals("n2", n2.path("name").asText());
        assertEquals(node2.address(), n2.path("address").asText());
        assertEquals(2, n2.path("weight").asInt());
        assertTrue(n2.path("enabled").asBoolean());
        assertEquals(false, n2.path("draining").asBoolean(true));
        assertTrue(n2.path("healthy").asBoolean());
        for (String field : new String[] {"activeConnections", "inFlightRequests", "requests", "failures", "selections"}) {
            assertEquals(0, n2.path(field).asInt(-1), field);
        }
        JsonNode agent = n2.path("agent");
        assertEquals("unknown", agent.path("state").asText(), "no agent sample yet: " + n2);
        assertEquals("not polled: policy " + TestFirstUsablePolicy.ID + " reads no agent metrics", agent.path("problem").asText());
        assertTrue(agent.has("lastSampleAgeMs") && agent.path("lastSampleAgeMs").isNull(), agent.toString());
        assertFalse(agent.has("ageMs") || agent.has("source") || agent.has("metrics"), "no sample fields: " + agent);
        assertFalse(n2.path("agentDown").asBoolean(true), "the policy reads no agent metrics");
        assertEquals(TestFirstUsablePolicy.ID, web.path("config").path("policy").asText());
    }

    @Test
    void getsOneClusterAnd404sAnUnknownOne() {
        assertEquals("web", api.get("/api/clusters/web").json().path("name").asText());
        assertEquals("web", api.get("/api/clusters/web/").json().path("name").asText());
        ApiClient.Response missing = api.get("/api/clusters/nope");
        assertEquals(404, missing.status());
        assertEquals("no cluster named 'nope'", missing.json().path("error").asText());
        assertTrue(missing.json().path("details").isArray());
    }

    @Test
    void createdClusterIsPersistedListensAndCarriesTraffic() throws Exception {
        ApiClient.Response created = api.post("/api/clusters", newCluster("api", node2.address()));
        assertEquals(201, created.status(), created.body());
        assertEquals("/api/clusters/api", created.header("Location"));
        JsonNode onDisk = clusterOnDisk("api");
        assertNotNull(onDisk, "created cluster must be in the config file");
        assertEquals(node2.address(), onDisk.path("nodes").get(0).path("address").asText());

        InetSocketAddress listener = parse(created.json().path("listen").path("bound").asText());
        assertEquals("hello", roundTrip(listener, "hello"));
        assertEquals(1, node2.accepted());
        assertEquals(0, node1.accepted());
        JsonNode only = api.get("/api/clusters/api").json().path("nodes").get(0);
        assertEquals(1, only.path("selections").asInt());
    }

    @Test
    void invalidClusterIs400WithTheValidatorsFieldMessages() throws Exception {
        String before = Files.readString(configFile);
        ApiClient.Response response = api.post("/api/clusters", """
                {"name": "bad", "mode": "tcp", "listen": "127.0.0.1:0", "policy": "%s",
                 "nodes": [{"name": "a", "address": "127.0.0.1:99999"}, {"name": "a", "address": "127.0.0.1:1", "weight": 0}]}
                """.formatted(TestFirstUsablePolicy.ID));
        assertEquals(400, response.status(), response.body());
        String details = details(response);
        assertTrue(details.contains("nodes[0].address: port 99999 out of range"), details);
        assertTrue(details.contains("nodes[1].name: duplicate node name 'a'"), details);
        assertTrue(details.contains("nodes[1].weight"), details);
        assertEquals(before, Files.readString(configFile), "a refused change must not touch the file");
        assertNull(control.cluster("bad"));
    }

    @Test
    void unknownFieldAndBadEnumAreRefusedLikeInTheFile() {
        ApiClient.Response typo = api.post("/api/clusters", newCluster("x", node1.address())
                .replace("\"mode\"", "\"wieght\": 3, \"mode\""));
        assertEquals(400, typo.status(), typo.body());
        assertTrue(details(typo).contains("wieght: unknown field"), typo.body());

        ApiClient.Response mode = api.post("/api/clusters", newCluster("x", node1.address()).replace("\"tcp\"", "\"udp\""));
        assertEquals(400, mode.status(), mode.body());
        assertTrue(details(mode).contains("mode: unknown mode 'udp', expected tcp or http"), mode.body());
    }

    @Test
    void creatingAnExistingClusterIs409() {
        ApiClient.Response response = api.post("/api/clusters", newCluster("web", node1.address()));
        assertEquals(409, response.status(), response.body());
    }

    @Test
    void malformedJsonIs400WithTheParsersMessage() throws Exception {
        String before = Files.readString(configFile);
        ApiClient.Response response = api.post("/api/clusters", "{\"name\": \"x\", ");
        assertEquals(400, response.status(), response.body());
        assertTrue(response.json().path("error").asText().startsWith("malformed JSON: "), response.body());
        assertTrue(details(response).contains("line 1"), response.body());
        assertEquals(before, Files.readString(configFile));
    }

    @Test
    void emptyAndNonObjectBodiesAre400() {
        ApiClient.Response empty = api.post("/api/clusters", "");
        assertEquals(400, empty.status());
        assertTrue(empty.json().path("error").asText().contains("empty"), empty.body());
        ApiClient.Response array = api.post("/api/clusters", "[1, 2]");
        assertEquals(400, array.status());
        assertEquals("request body must be a JSON object, got array", array.json().path("error").asText());
    }

    @Test
    void bodyOverOneMegabyteIs413() throws Exception {
        String before = Files.readString(configFile);
        String huge = "{\"name\": \"" + "x".repeat(ApiCall.MAX_BODY_BYTES) + "\"}";
        ApiClient.Response response = api.post("/api/clusters", huge);
        assertEquals(413, response.status(), response.body().length() > 300 ? "" : response.body());
        assertTrue(response.json().path("error").asText().contains("exceeds the limit"));
        assertEquals(before, Files.readString(configFile));
    }

    @Test
    void chunkedBodyOverTheLimitIs413Too() throws Exception {
        byte[] huge = ("{\"name\": \"" + "y".repeat(ApiCall.MAX_BODY_BYTES) + "\"}").getBytes(StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + plane.port() + "/api/clusters"))
                .header("Authorization", "Bearer " + TOKEN)
                // An input-stream body has no known length, so it is sent chunked, without Content-Length.
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(huge)))
                .build();
        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(413, response.statusCode());
        assertTrue(response.body().contains("more than " + ApiCall.MAX_BODY_BYTES + " bytes"), response.body());
    }

    @Test
    void latestAgentSampleIsSummarisedPerNode() {
        // What the node monitor does when an agent answers.
        control.cluster("web").node("n1").updateAgentSample(
                new AgentSample(1_795_000_000_000L, AgentSample.Source.POLL, Map.of("JVM_HEAP_USED%", 61.5)));
        JsonNode agent = api.get("/api/clusters/web/nodes/n1").json().path("agent");
        assertEquals("POLL", agent.path("source").asText());
        assertEquals(1_795_000_000_000L, agent.path("timestampMillis").asLong());
        assertEquals(61.5, agent.path("metrics").path("JVM_HEAP_USED%").asDouble());
        assertTrue(agent.path("ageMs").asLong(-1) >= 0, agent.toString());
        assertEquals("ok", agent.path("state").asText());
        assertTrue(agent.path("problem").isNull(), agent.toString());
        assertEquals(agent.path("ageMs").asLong(), agent.path("lastSampleAgeMs").asLong(-1), 1_000, agent.toString());
        assertEquals("unknown", api.get("/api/clusters/web/nodes/n2").json().path("agent").path("state").asText());
    }

    @Test
    void replacedClusterIsPersistedAndRunsTheNewConfiguration() throws Exception {
        ApiClient.Response response = api.put("/api/clusters/web", """
                {"mode": "tcp", "listen": "127.0.0.1:0", "policy": "%s",
                 "nodes": [{"name": "n1", "address": "%s"}, {"name": "n2", "address": "%s"}]}
                """.formatted(TestLastUsablePolicy.ID, node1.address(), node2.address()));
        assertEquals(200, response.status(), response.body());
        assertEquals(TestLastUsablePolicy.ID, clusterOnDisk("web").path("policy").asText());
        JsonNode web = api.get("/api/clusters/web").json();
        assertEquals(TestLastUsablePolicy.ID, web.path("policy").path("id").asText());
        assertEquals(1, web.path("nodes").get(1).path("weight").asInt());

        assertEquals("ping", roundTrip(parse(web.path("listen").path("bound").asText()), "ping"));
        assertEquals(1, node2.accepted(), "the new policy picks the last node");
    }

    @Test
    void replaceRefusesRenamingAndUnknownClusters() {
        ApiClient.Response rename = api.put("/api/clusters/web", newCluster("other", node1.address()));
        assertEquals(400, rename.status(), rename.body());
        assertTrue(details(rename).contains("cannot be renamed"), rename.body());
        assertEquals(404, api.put("/api/clusters/nope", newCluster("nope", node1.address())).status());
    }

    @Test
    void deletedClusterIsGoneFromFileAndReleasesItsPort() throws Exception {
        InetSocketAddress listener = control.boundAddress("web");
        assertEquals("up", roundTrip(listener, "up"));

        ApiClient.Response response = api.delete("/api/clusters/web");
        assertEquals(204, response.status(), response.body());
        assertEquals("", response.body());
        assertNull(clusterOnDisk("web"));
        assertEquals(404, api.get("/api/clusters/web").status());
        assertThrows(ConnectException.class, () -> roundTrip(listener, "down"));
        assertEquals(404, api.delete("/api/clusters/web").status());
    }

    @Test
    void wrongMethodIs405WithAllow() {
        ApiClient.Response patch = api.send("PATCH", "/api/clusters", "{}", "Bearer " + TOKEN);
        assertEquals(405, patch.status());
        assertEquals("GET, POST", patch.header("Allow"));
        ApiClient.Response post = api.post("/api/clusters/web/stats", "{}");
        assertEquals(405, post.status());
        assertEquals("GET", post.header("Allow"));
        assertTrue(post.json().path("error").asText().contains("not allowed"));
    }

    @Test
    void errorsTomcatAnswersItselfAreApiJsonToo() {
        ApiClient.Response response = api.get("/api/clusters/web%2Fx");
        assertEquals(400, response.status(), response.body());
        assertTrue(response.header("Content-Type").startsWith("application/json"), response.header("Content-Type"));
        assertTrue(response.json().path("error").asText().startsWith("Invalid URI"), response.body());
        assertTrue(response.json().path("details").isArray());
        assertFalse(response.body().contains("Tomcat"), "no server version: " + response.body());
    }

    @Test
    void unknownPathsAre404Json() {
        // "/" and other paths outside /api are the web console's pages (ConsoleWebTest).
        for (String path : new String[] {"/api", "/api/clusters/web/nodes", "/api/clusters/web/extra/x/y"}) {
            ApiClient.Response response = api.get(path);
            assertEquals(404, response.status(), path);
            assertTrue(response.json().path("error").asText().startsWith("no such resource"), path);
        }
    }
}
