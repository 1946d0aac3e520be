package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.loadwise.console.testing.ApiClient;
import io.loadwise.console.testing.RawHttp;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /api/requests} over real traffic through a real HTTP cluster, with no access log configured: the
 * console keeps the last requests by itself. The ring is the JVM's, so every query names this test's cluster.
 */
class RequestsApiTest extends ApiTestBase {

    private HttpServer web;

    @BeforeEach
    void startWebNode() throws IOException {
        web = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        web.createContext("/", exchange -> {
            int status = exchange.getRequestURI().getPath().startsWith("/fail") ? 503 : 200;
            byte[] body = "hello".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        web.start();
    }

    @AfterEach
    void stopWebNode() {
        web.stop(0);
    }

    @Test
    void lastRequestsAreListedNewestFirstAndFiltered() throws Exception {
        ApiClient.Response created = api.post("/api/clusters", """
                {"name": "live-api", "mode": "http", "listen": "127.0.0.1:0", "policy": "round-robin",
                 "nodes": [{"name": "w1", "address": "127.0.0.1:%d"}]}
                """.formatted(web.getAddress().getPort()));
        assertEquals(201, created.status(), created.body());
        int port = parse(created.json().path("listen").path("bound").asText()).getPort();
        assertEquals(200, api.get("/api/requests?limit=1").status(), "a first look starts the recording");
        List<String> sent = new ArrayList<>();
        for (String target : new String[] {"/ok/1", "/fail/2", "/ok/3?q=%3Cscript%3E&x=%221%22", "/fail/4"}) {
            assertEquals(target.startsWith("/fail") ? 503 : 200, RawHttp.get(port, target).status());
            sent.add(0, target);
        }
        awaitTrue(() -> api.get("/api/requests?cluster=live-api").json().path("count").asInt() == 4,
                "four requests listed");

        JsonNode all = api.get("/api/requests?cluster=live-api").json();
        assertEquals(1000, all.path("capacity").asInt());
        assertEquals(sent, targets(all), "newest first");
        JsonNode newest = all.path("requests").get(0);
        assertEquals("GET", newest.path("method").asText());
        assertEquals(503, newest.path("status").asInt());
        assertEquals("w1", newest.path("node").asText());
        assertEquals("HTTP/1.1", newest.path("protocol").asText());
        assertEquals(2, newest.path("termination").asText().length());
        assertTrue(newest.path("totalMs").asLong(-1) >= 0, newest.toString());

        assertEquals(List.of("/fail/4", "/fail/2"), targets(api.get("/api/requests?cluster=live-api&status=5xx").json()));
        assertEquals(List.of("/ok/3?q=%3Cscript%3E&x=%221%22", "/ok/1"),
                targets(api.get("/api/requests?cluster=live-api&status=2xx").json()));
        assertEquals(List.of("/fail/4"), targets(api.get("/api/requests?cluster=live-api&status=5xx&limit=1").json()));
        assertEquals(sent, targets(api.get("/api/requests?cluster=live-api&node=w1").json()));
        assertEquals(List.of(), targets(api.get("/api/requests?cluster=live-api&node=w2").json()));
        String state = newest.path("termination").asText();
        assertFalse(targets(api.get("/api/requests?cluster=live-api&termination=" + encode(state)).json()).isEmpty());
        assertEquals(List.of(), targets(api.get("/api/requests?cluster=live-api&termination=CH").json()));
    }

    @Test
    void badParametersAreAnsweredWithClear400s() {
        assertBad("/api/requests?status=6xx", "status class");
        assertBad("/api/requests?status=200", "status class");
        assertBad("/api/requests?termination=ZZ", "termination");
        assertBad("/api/requests?limit=0", "limit");
        assertBad("/api/requests?limit=1001", "limit");
        assertBad("/api/requests?limit=many", "limit");
        assertBad("/api/requests?node=" + "x".repeat(201), "node");
        assertEquals(401, api.send("GET", "/api/requests", null, null).status());
    }

    private void assertBad(String path, String says) {
        ApiClient.Response r = api.get(path);
        assertEquals(400, r.status(), r.body());
        assertTrue(r.json().path("error").asText().contains(says), r.body());
    }

    private static String encode(String s) {
        return java.net.URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static List<String> targets(JsonNode page) {
        List<String> out = new ArrayList<>();
        page.path("requests").forEach(r -> out.add(r.path("target").asText()));
        return out;
    }
}
