package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.console.testing.ApiClient;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.testsupport.EchoServer;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/** {@code POST /api/reload} re-reads the file; an invalid one is 422 with the validator's messages. */
class ReloadApiTest extends ApiTestBase {

    @Test
    void reloadAppliesTheEditedFile() throws Exception {
        try (EchoServer node3 = new EchoServer()) {
            String edited = Files.readString(configFile).replace("\"weight\": 2}]",
                    "\"weight\": 2}, {\"name\": \"n3\", \"address\": \"" + node3.address() + "\"}]");
            Files.writeString(configFile, edited);

            ApiClient.Response response = api.post("/api/reload", null);

            assertEquals(200, response.status(), response.body());
            assertEquals("[\"web\"]", response.json().path("replaced").toString());
            assertEquals(3, control.cluster("web").nodes().size());
        }
    }

    @Test
    void anInvalidFileIs422WithTheValidatorsMessagesAndChangesNothing() throws Exception {
        LoadwiseConfig before = control.config();
        Files.writeString(configFile, Files.readString(configFile).replace("\"weight\": 2", "\"weight\": 0"));

        ApiClient.Response response = api.post("/api/reload", null);

        assertEquals(422, response.status(), response.body());
        assertTrue(response.json().path("details").toString().contains("clusters[0].nodes[1].weight"), response.body());
        assertEquals(before, control.config());
        assertEquals(2, control.cluster("web").nodes().get(1).weight());
    }

    @Test
    void reloadNeedsTheToken() {
        assertEquals(401, api.send("POST", "/api/reload", null, null).status());
        assertEquals(405, api.get("/api/reload").status());
    }

    @Test
    void withTheFileThereAreNoOtherReplicas() {
        ApiClient.Response response = api.get("/api/replicas");
        assertEquals(200, response.status(), response.body());
        assertEquals("[]", response.json().toString());
    }
}
