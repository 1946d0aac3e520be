package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadwise.console.testing.ApiClient;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

class NodeApiTest extends ApiTestBase {

    private JsonNode nodeOnDisk(String name) throws Exception {
        for (JsonNode n : clusterOnDisk("web").path("nodes")) {
            if (n.path("name").asText().equals(name)) {
                return n;
            }
        }
        throw new AssertionError("node " + name + " not in file");
    }

    @Test
    void disabledNodeIsShownPersistedAndGetsNoTraffic() throws Exception {
        ApiClient.Response response = api.put("/api/clusters/web/nodes/n1", "{\"enabled\": false}");
        assertEquals(200, response.status(), response.body());
        assertFalse(response.json().path("enabled").asBoolean(true));
        assertFalse(api.get("/api/clusters/web").json().path("nodes").get(0).path("enabled").asBoolean(true));
        assertFalse(nodeOnDisk("n1").path("enabled").asBoolean(true));

        assertEquals("x", roundTrip(control.boundAddress("web"), "x"));
        assertEquals(0, node1.accepted());
        assertEquals(1, node2.accepted());
    }

    @Test
    void weightChangeIsShownAndPersisted() throws Exception {
        ApiClient.Response response = api.put("/api/clusters/web/nodes/n2", "{\"weight\": 7}");
        assertEquals(200, response.status(), response.body());
        assertEquals(7, api.get("/api/clusters/web/nodes/n2").json().path("weight").asInt());
        assertEquals(7, nodeOnDisk("n2").path("weight").asInt());
    }

    @Test
    void drainIsRuntimeOnlyAndMovesNewWork() throws Exception {
        String before = Files.readString(configFile);
        ApiClient.Response response = api.put("/api/clusters/web/nodes/n1", "{\"drain\": true}");
        assertEquals(200, response.status(), response.body());
        JsonNode n1 = response.json();
        assertTrue(n1.path("draining").asBoolean());
        assertTrue(n1.path("enabled").asBoolean(), "draining leaves the administrative flag alone");
        assertEquals(JSON.readTree(before), configOnDisk(), "drain is not persisted");

        assertEquals("y", roundTrip(control.boundAddress("web"), "y"));
        assertEquals(0, node1.accepted());
        assertEquals(1, node2.accepted());
    }

    @Test
    void badFieldsAre400AndChangeNothing() throws Exception {
        String before = Files.readString(configFile);
        ApiClient.Response response = api.put("/api/clusters/web/nodes/n1",
                "{\"enabled\": \"no\", \"weight\": \"3\", \"drained\": true}");
        assertEquals(400, response.status(), response.body());
        String details = response.json().path("details").toString();
        assertTrue(details.contains("enabled: expected true or false"), details);
        assertTrue(details.contains("weight: expected an integer"), details);
        assertTrue(details.contains("drained: unknown field"), details);
        assertEquals(before, Files.readString(configFile));
        assertTrue(control.cluster("web").node("n1").configuredEnabled());
    }

    @Test
    void outOfRangeWeightIsRefusedByTheValidator() throws Exception {
        ApiClient.Response response = api.put("/api/clusters/web/nodes/n1", "{\"weight\": 0}");
        assertEquals(400, response.status(), response.body());
        assertTrue(response.json().path("details").toString().contains("weight"), response.body());
        assertEquals(1, control.cluster("web").node("n1").weight());
    }

    @Test
    void emptyUpdateIs400AndUnknownNodeOrClusterIs404() {
        ApiClient.Response empty = api.put("/api/clusters/web/nodes/n1", "{}");
        assertEquals(400, empty.status());
        assertTrue(empty.json().path("error").asText().startsWith("nothing to change"));
        ApiClient.Response node = api.put("/api/clusters/web/nodes/n9", "{\"enabled\": false}");
        assertEquals(404, node.status());
        assertEquals("cluster 'web' has no node named 'n9'", node.json().path("error").asText());
        assertEquals(404, api.put("/api/clusters/nope/nodes/n1", "{\"enabled\": false}").status());
        assertEquals(404, api.get("/api/clusters/web/nodes/n9").status());
    }
}
