package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadwise.console.prometheus.ExpositionParser;
import io.loadwise.console.testing.ApiClient;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Priority groups and panic through the REST API and /metrics (issue 32): edited live, validated, shown. */
class GroupsApiTest extends ApiTestBase {

    /** The cluster's configuration as the API shows it, with {@code n2} made a backup node. */
    private ObjectNode webWithBackupN2() {
        ObjectNode config = (ObjectNode) api.get("/api/clusters/web").json().path("config").deepCopy();
        ((ObjectNode) config.path("nodes").get(1)).put("backup", true);
        return config;
    }

    @Test
    void oneGroupByDefault() {
        JsonNode web = api.get("/api/clusters/web").json();
        assertEquals(0, web.path("groups").path("activePriority").asInt(-1));
        assertFalse(web.path("groups").path("backupActive").asBoolean(true));
        assertFalse(web.path("groups").path("panic").asBoolean(true));
        assertEquals(2, web.path("groups").path("usableNodes").asInt());
        assertEquals("active", web.path("nodes").get(1).path("groupState").asText());
    }

    @Test
    void aBadPriorityIs400WithTheFieldNamedAndTheFileUntouched() throws Exception {
        String before = Files.readString(configFile);
        ObjectNode config = (ObjectNode) api.get("/api/clusters/web").json().path("config").deepCopy();
        ((ObjectNode) config.path("nodes").get(0)).put("priority", -1);
        config.put("minActive", 0);
        ApiClient.Response response = api.put("/api/clusters/web", config.toString());
        assertEquals(400, response.status(), response.body());
        String details = response.json().path("details").toString();
        assertTrue(details.contains("clusters[0].nodes[0].priority: -1 out of range 0..65535"), details);
        assertTrue(details.contains("clusters[0].minActive: 0 out of range 1..10000"), details);
        assertEquals(before, Files.readString(configFile));
    }

    @Test
    void aBackupNodeIsAppliedLiveAndTakesOverWhenThePrimaryIsDisabled() throws Exception {
        String bound = api.get("/api/clusters/web").json().path("listen").path("bound").asText();
        ApiClient.Response put = api.put("/api/clusters/web", webWithBackupN2().toString());
        assertEquals(200, put.status(), put.body());
        JsonNode web = api.get("/api/clusters/web").json();
        assertEquals(bound, web.path("listen").path("bound").asText(), "applied live: the listener stayed");
        assertEquals("standby", web.path("nodes").get(1).path("groupState").asText());
        assertTrue(Files.readString(configFile).contains("\"backup\" : true"), "persisted");

        assertEquals(200, api.put("/api/clusters/web/nodes/n1", "{\"enabled\": false}").status());
        web = api.get("/api/clusters/web").json();
        assertTrue(web.path("groups").path("backupActive").asBoolean(), web.path("groups").toString());
        assertEquals(1, web.path("groups").path("activePriority").asInt());
        assertEquals("active", web.path("nodes").get(1).path("groupState").asText());
        ExpositionParser metrics = ExpositionParser.parse(api.get("/metrics").body());
        assertEquals(1, metrics.value("loadwise_cluster_backup_active", Map.of("cluster", "web")));
        assertEquals(1, metrics.value("loadwise_cluster_active_priority", Map.of("cluster", "web")));
        assertEquals(0, metrics.value("loadwise_cluster_panic", Map.of("cluster", "web")));
    }

    @Test
    void theNodeEndpointMovesANodeBetweenGroups() throws Exception {
        ApiClient.Response bad = api.put("/api/clusters/web/nodes/n2", "{\"priority\": -1}");
        assertEquals(400, bad.status(), bad.body());
        assertTrue(bad.json().path("details").toString()
                .contains("clusters[0].nodes[1].priority: -1 out of range 0..65535"), bad.body());
        ApiClient.Response wrongType = api.put("/api/clusters/web/nodes/n2", "{\"backup\": 1}");
        assertEquals(400, wrongType.status(), wrongType.body());

        ApiClient.Response backup = api.put("/api/clusters/web/nodes/n2", "{\"backup\": true}");
        assertEquals(200, backup.status(), backup.body());
        assertEquals("standby", backup.json().path("groupState").asText());

        ApiClient.Response priorityAlone = api.put("/api/clusters/web/nodes/n2", "{\"priority\": 1}");
        assertEquals(400, priorityAlone.status(), priorityAlone.body());
        assertTrue(priorityAlone.json().path("details").toString().contains("a backup node has no priority"),
                priorityAlone.body());

        ApiClient.Response moved = api.put("/api/clusters/web/nodes/n2", "{\"backup\": false, \"priority\": 1}");
        assertEquals(200, moved.status(), moved.body());
        assertEquals("standby", moved.json().path("groupState").asText(), "priority 1 waits behind n1");
        JsonNode n2 = api.get("/api/clusters/web").json().path("config").path("nodes").get(1);
        assertEquals(1, n2.path("priority").asInt());
        assertTrue(n2.path("backup").isMissingNode(), n2.toString());

        assertEquals(200, api.put("/api/clusters/web/nodes/n2", "{\"priority\": 0}").status());
        assertEquals("active", api.get("/api/clusters/web/nodes/n2").json().path("groupState").asText());
    }
}
