package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.console.testing.ApiClient;
import org.junit.jupiter.api.Test;

class AuthApiTest extends ApiTestBase {

    private void assertUnauthorized(ApiClient.Response response) {
        assertEquals(401, response.status(), response.body());
        String challenge = response.header("WWW-Authenticate");
        assertNotNull(challenge, "401 must carry a WWW-Authenticate challenge");
        assertTrue(challenge.startsWith("Bearer"), challenge);
        assertTrue(response.json().path("error").asText().contains("bearer token"), response.body());
    }

    @Test
    void requestWithoutTokenIsRejected() {
        assertUnauthorized(api.send("GET", "/api/clusters", null, null));
    }

    @Test
    void wrongTokenIsRejectedAsInvalid() {
        ApiClient.Response response = api.send("GET", "/api/clusters", null, "Bearer not-the-token");
        assertUnauthorized(response);
        assertTrue(response.header("WWW-Authenticate").contains("invalid_token"));
    }

    @Test
    void prefixOfTheTokenIsRejected() {
        assertUnauthorized(api.send("GET", "/api/clusters", null, "Bearer " + TOKEN.substring(0, 5)));
        assertUnauthorized(api.send("GET", "/api/clusters", null, "Bearer " + TOKEN + "x"));
    }

    @Test
    void otherSchemesAreRejected() {
        assertUnauthorized(api.send("GET", "/api/clusters", null, "Basic " + TOKEN));
        assertUnauthorized(api.send("GET", "/api/clusters", null, TOKEN));
    }

    @Test
    void authenticationComesBeforeRoutingAndChangesNothing() throws Exception {
        assertUnauthorized(api.send("GET", "/api/no-such-thing", null, null));
        assertUnauthorized(api.send("DELETE", "/api/clusters/web", null, "Bearer wrong"));
        assertNotNull(clusterOnDisk("web"), "an unauthenticated DELETE must not delete");
        assertNotNull(control.cluster("web"));
    }

    @Test
    void rightTokenIsAcceptedWhateverTheSchemeCase() {
        assertEquals(200, api.get("/api/clusters").status());
        ApiClient.Response lower = api.send("GET", "/api/clusters", null, "bearer " + TOKEN);
        assertEquals(200, lower.status(), lower.body());
        assertNull(lower.header("WWW-Authenticate"));
    }
}
