package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.loadwise.console.api.AuthFilter;
import io.loadwise.console.testing.ApiClient;
import io.loadwise.console.testing.LogLines;
import io.loadwise.console.testing.RawHttp;
import java.net.InetAddress;
import java.util.List;
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

    @Test
    void wrongTokensThrottleTheirAddressButNoOtherOne() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertUnauthorized(api.send("GET", "/api/clusters", null, "Bearer wrong-guess-number-" + i));
        }
        ApiClient.Response throttled = api.get("/api/clusters");
        assertEquals(429, throttled.status(), "too early: even the right token is not checked: " + throttled.body());
        assertEquals("1", throttled.header("Retry-After"));
        assertEquals("too many invalid bearer tokens from this address: retry after 1 s (requests sooner are "
                + "refused without checking the token)", throttled.json().path("error").asText());

        RawHttp.Response other = RawHttp.send(InetAddress.getByName("127.0.0.2"), plane.port(), "GET", "/api/clusters",
                null, "Authorization: Bearer " + TOKEN);
        assertEquals(200, other.status(), "another address gets in at once: " + other.body());
    }

    @Test
    void aMissingTokenIsNotAGuessAndIsNeverThrottled() {
        for (int i = 0; i < 6; i++) {
            assertUnauthorized(api.send("GET", "/api/clusters", null, null));
        }
        assertEquals(200, api.get("/api/clusters").status());
    }

    @Test
    void failedTokensAreLoggedWithTheirAddressForTheApiAndMetrics() throws Exception {
        try (LogLines lines = new LogLines(AuthFilter.class, Level.WARN)) {
            assertUnauthorized(api.send("GET", "/metrics", null, "Bearer not-the-token-at-all"));
            RawHttp.Response fromElsewhere = RawHttp.send(InetAddress.getByName("127.0.0.3"), plane.port(), "DELETE",
                    "/api/clusters/web", null, "Authorization: Bearer not-the-token-either");
            assertEquals(401, fromElsewhere.status());
            for (int i = 0; i < 5; i++) {
                api.send("GET", "/api/clusters", null, "Bearer flood-" + i);
            }
            assertEquals(List.of(
                    "WARN admin API bearer token failed from 127.0.0.1: invalid token on GET /metrics (1 in a row)",
                    "WARN admin API bearer token failed from 127.0.0.3: invalid token on DELETE /api (1 in a row)"),
                    lines.lines(), "one line per address per 10 s; the rest is summarised later");
        }
    }
}
