package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadwise.console.testing.ApiClient;
import io.loadwise.dispatcher.config.DrainMode;
import java.nio.file.Files;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code PUT /api/clusters/{c}/nodes/{n}} with {@code "drain": "sessions"}: progress in the node's status and in
 * Prometheus, mode switches said, runtime-only, and every bad value refused with its field named.
 */
class DrainApiTest extends ApiTestBase {

    private static final String NODE = "/api/clusters/web/nodes/n1";

    @Test
    void aSessionDrainShowsItsProgressAndIsNotPersisted() throws Exception {
        String before = Files.readString(configFile);
        ApiClient.Response response = api.put(NODE, "{\"drain\": \"sessions\", \"deadlineMs\": 600000,"
                + " \"sessionIdleMs\": 5000}");
        assertEquals(200, response.status(), response.body());
        JsonNode n1 = response.json();
        assertEquals("drain started (sessions)", n1.path("drainChange").asText());
        assertTrue(n1.path("draining").asBoolean());
        JsonNode drain = n1.path("drain");
        assertEquals("sessions", drain.path("mode").asText());
        assertEquals("draining", drain.path("state").asText(), "no agent: waits for sessionIdleMs");
        assertEquals(5000, drain.path("sessionIdleMs").asLong());
        assertEquals(drain.path("startedAt").asLong() + 600_000, drain.path("deadlineAt").asLong());
        assertTrue(drain.path("sessionsLeft").isNull(), "no agent sample: unknown");
        assertEquals(0, drain.path("pinnedLastMinute").asInt());
        assertEquals(JSON.readTree(before), configOnDisk(), "a drain from the API is not persisted");

        JsonNode listed = api.get("/api/clusters/web").json().path("nodes").get(0);
        assertEquals("sessions", listed.path("drain").path("mode").asText());
        assertTrue(api.get("/api/clusters/web").json().path("nodes").get(1).path("drain").isMissingNode(),
                "a node that does not drain has no drain object");

        String metrics = api.get("/metrics").body();
        assertTrue(metrics.contains("loadwise_node_draining{cluster=\"web\",node=\"n1\",mode=\"sessions\","
                + "state=\"draining\"} 1"), metrics);
        assertTrue(metrics.contains("loadwise_node_drain_pinned_last_minute{cluster=\"web\",node=\"n1\"} 0"), metrics);
        assertFalse(metrics.contains("loadwise_node_draining{cluster=\"web\",node=\"n2\""), metrics);
    }

    @Test
    void aSecondDrainOfAnotherModeSwitchesAndSaysSo() {
        assertEquals("drain started (immediate)", api.put(NODE, "{\"drain\": true}").json().path("drainChange").asText());
        ApiClient.Response switched = api.put(NODE, "{\"drain\": \"sessions\"}");
        assertEquals(200, switched.status(), switched.body());
        assertEquals("switched from immediate to sessions", switched.json().path("drainChange").asText());
        assertEquals("sessions", switched.json().path("drain").path("mode").asText());
        assertEquals(1_800_000, switched.json().path("drain").path("sessionIdleMs").asLong(), "30 min by default");
        assertEquals("already draining (sessions): unchanged",
                api.put(NODE, "{\"drain\": \"sessions\"}").json().path("drainChange").asText());
        assertEquals("switched from sessions to immediate",
                api.put(NODE, "{\"drain\": true}").json().path("drainChange").asText());
        ApiClient.Response ended = api.put(NODE, "{\"drain\": false}");
        assertEquals("drain ended (was immediate)", ended.json().path("drainChange").asText());
        assertFalse(ended.json().path("draining").asBoolean(true));
        assertTrue(ended.json().path("drain").isMissingNode());
        assertEquals(DrainMode.NONE, control.cluster("web").node("n1").drainMode());
    }

    @Test
    void aDrainOfAnUnknownNodeOrClusterIs404() {
        ApiClient.Response node = api.put("/api/clusters/web/nodes/n9", "{\"drain\": \"sessions\"}");
        assertEquals(404, node.status());
        assertEquals("cluster 'web' has no node named 'n9'", node.json().path("error").asText());
        assertEquals(404, api.put("/api/clusters/nope/nodes/n1", "{\"drain\": \"sessions\"}").status());
    }

    static Stream<Arguments> bad() {
        String expected = "drain: expected true, false or \\\"sessions\\\", got ";
        return Stream.of(Arguments.of("{\"drain\": \"true\"}", expected + "\\\"true\\\""),
                Arguments.of("{\"drain\": \"Sessions\"}", expected + "\\\"Sessions\\\""),
                Arguments.of("{\"drain\": \"immediate\"}", expected + "\\\"immediate\\\""),
                Arguments.of("{\"drain\": 1}", expected + "1"),
                Arguments.of("{\"drain\": null}", expected + "null"),
                Arguments.of("{\"drain\": [\"sessions\"]}", expected + "an array"),
                Arguments.of("{\"drain\": {}}", expected + "an object"),
                Arguments.of("{\"drain\": true, \"deadlineMs\": 1000}", "deadlineMs: only with \\\"drain\\\": \\\"sessions\\\""),
                Arguments.of("{\"deadlineMs\": 1000}", "deadlineMs: only with \\\"drain\\\": \\\"sessions\\\""),
                Arguments.of("{\"drain\": false, \"sessionIdleMs\": 1000}",
                        "sessionIdleMs: only with \\\"drain\\\": \\\"sessions\\\""),
                Arguments.of("{\"drain\": \"sessions\", \"deadlineMs\": -1}", "deadlineMs: -1 must be at least 0"),
                Arguments.of("{\"drain\": \"sessions\", \"sessionIdleMs\": 0}", "sessionIdleMs: 0 must be at least 1"),
                Arguments.of("{\"drain\": \"sessions\", \"deadlineMs\": \"600000\"}",
                        "deadlineMs: expected a whole number, got \\\"600000\\\""),
                Arguments.of("{\"drain\": \"sessions\", \"deadlineMs\": 1.5}", "deadlineMs: expected a whole number, got 1.5"),
                Arguments.of("{\"drain\": \"sessions\", \"deadlineMs\": 99999999999999999999}",
                        "deadlineMs: expected a whole number, got 99999999999999999999"),
                Arguments.of("{\"drain\": \"sessions\", \"deadline\": 5}", "deadline: unknown field"));
    }

    @ParameterizedTest
    @MethodSource("bad")
    void aBadDrainIs400NamesTheFieldAndChangesNothing(String body, String expected) {
        ApiClient.Response response = api.put(NODE, body);
        assertEquals(400, response.status(), response.body());
        String details = response.json().path("details").toString();
        assertTrue(details.contains(expected), details);
        assertEquals(DrainMode.NONE, control.cluster("web").node("n1").drainMode());
    }
}
