package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.loadwise.console.prometheus.ExpositionParser;
import io.loadwise.console.testing.ApiClient;
import io.loadwise.dispatcher.config.ConfigLoader;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /api/listeners} and {@code /api/rate-limits} over real HTTP against the real dispatcher: a listener is
 * created through the API in front of a real HTTP node, carries traffic, and its route table, counters, rate
 * limits and {@code /metrics} series are read back; refused edits name the field and leave the file alone.
 */
class ListenersApiTest extends ApiTestBase {

    private HttpServer webNode;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void startShop() throws IOException {
        webNode = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        webNode.createContext("/", exchange -> {
            byte[] body = ("shop " + exchange.getRequestURI().getPath()).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        webNode.start();
        ApiClient.Response shop = api.post("/api/clusters", """
                {"name": "shop", "mode": "http", "policy": "round-robin",
                 "nodes": [{"name": "a", "address": "127.0.0.1:%d"}]}
                """.formatted(webNode.getAddress().getPort()));
        assertEquals(201, shop.status(), shop.body());
    }

    @AfterEach
    void stopShop() {
        webNode.stop(0);
    }

    private static final String EDGE = """
            {"name": "edge", "listen": "127.0.0.1:0",
             "routes": [{"name": "health", "match": {"path": "/healthz"}, "respond": {"status": 200, "body": "ok"}},
                        {"name": "app", "match": {"pathPrefix": "/"}, "cluster": "shop"}]}
            """;

    private ApiClient.Response createEdge() {
        ApiClient.Response created = api.post("/api/listeners", EDGE);
        assertEquals(201, created.status(), created.body());
        return created;
    }

    private HttpResponse<String> fetch(ApiClient.Response listener, String path) throws Exception {
        return fetch(http, listener, path);
    }

    private static HttpResponse<String> fetch(HttpClient client, ApiClient.Response listener, String path)
            throws Exception {
        InetSocketAddress bound = parse(listener.json().path("listen").path("bound").asText());
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + bound.getPort() + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String details(ApiClient.Response response) {
        return response.json().path("details").toString();
    }

    private JsonNode route(String listener, int index) {
        return api.get("/api/listeners/" + listener).json().path("routes").get(index);
    }

    @Test
    void createdListenerIsPersistedRoutesTrafficAndCountsEachRoute() throws Exception {
        ApiClient.Response created = createEdge();
        assertEquals("/api/listeners/edge", created.header("Location"));
        JsonNode onDisk = configOnDisk().path("listeners").get(0);
        assertEquals("edge", onDisk.path("name").asText());
        assertEquals("shop", onDisk.path("routes").get(1).path("cluster").asText());
        assertEquals(control.config().listeners(), ConfigLoader.load(configFile).listeners(), "the file reads back");

        assertEquals("ok", fetch(created, "/healthz").body());
        assertEquals("shop /cart", fetch(created, "/cart").body());
        assertEquals("shop /cart", fetch(created, "/cart").body());
        awaitTrue(() -> route("edge", 1).path("requests").asLong() == 2
                && route("edge", 0).path("requests").asLong() == 1, "three answered requests counted");

        JsonNode all = api.get("/api/listeners").json();
        JsonNode edge = all.path("listeners").get(0);
        assertEquals("edge", edge.path("name").asText());
        assertEquals("127.0.0.1:0", edge.path("listen").path("configured").asText());
        assertFalse(edge.path("tls").asBoolean(true));
        assertEquals(0, edge.path("rejectedPerClient").asLong(-1));
        JsonNode health = edge.path("routes").get(0);
        assertEquals("health", health.path("name").asText());
        assertEquals("respond", health.path("action").asText());
        assertEquals("[]", health.path("targets").toString());
        assertEquals("/healthz", health.path("config").path("match").path("path").asText());
        assertEquals(1, health.path("byStatusClass").path("2xx").asLong());
        JsonNode app = edge.path("routes").get(1);
        assertEquals("cluster", app.path("action").asText());
        assertEquals("[\"shop\"]", app.path("targets").toString());
        assertEquals(Map.of("1xx", 0, "2xx", 2, "3xx", 0, "4xx", 0, "5xx", 0),
                JSON.convertValue(app.path("byStatusClass"), Map.class));
        assertTrue(all.path("rateLimits").isObject() && all.path("rateLimits").isEmpty(), all.toString());
    }

    @Test
    void aChangeComputedFromAnOlderConfigurationConflictsAndChangesNothing() throws Exception {
        io.loadwise.dispatcher.config.LoadwiseConfig stale = control.config();
        createEdge();
        String before = Files.readString(configFile);
        io.loadwise.dispatcher.control.ConfigConflictException e = assertThrows(
                io.loadwise.dispatcher.control.ConfigConflictException.class,
                () -> control.replaceListeners(stale, null, null));
        assertEquals("the configuration changed meanwhile; nothing was changed. Read it again and repeat the change.",
                e.getMessage());
        assertEquals(1, control.config().listenersOrEmpty().size(), "the listener created meanwhile stays");
        assertEquals(before, Files.readString(configFile));
    }

    @Test
    void unknownListenerIs404DuplicateIs409AndRenamingIs400() {
        createEdge();
        for (ApiClient.Response missing : List.of(api.get("/api/listeners/nope"), api.put("/api/listeners/nope", EDGE),
                api.delete("/api/listeners/nope"), api.get("/api/listeners/nope/routes"),
                api.put("/api/listeners/nope/routes", "{\"routes\": []}"))) {
            assertEquals(404, missing.status(), missing.body());
            assertEquals("no listener named 'nope'", missing.json().path("error").asText());
        }
        ApiClient.Response again = api.post("/api/listeners", EDGE);
        assertEquals(409, again.status(), again.body());
        assertEquals("a listener named 'edge' already exists; PUT /api/listeners/edge replaces it",
                again.json().path("error").asText());
        ApiClient.Response renamed = api.put("/api/listeners/edge", EDGE.replace("\"edge\"", "\"other\""));
        assertEquals(400, renamed.status(), renamed.body());
        assertEquals("[\"name: \\\"other\\\" does not match the listener 'edge' in the URL; listeners cannot be"
                + " renamed\"]", details(renamed));
        ApiClient.Response wrongMethod = api.post("/api/listeners/edge", EDGE);
        assertEquals(405, wrongMethod.status());
        assertEquals("DELETE, GET, PUT", wrongMethod.header("Allow"));
    }

    @Test
    void adversarialBodiesAre400NamingTheFieldAndLeaveTheFileAlone() throws Exception {
        createEdge();
        String before = Files.readString(configFile);
        Map<String, String> refused = Map.of(
                """
                {"name": "x", "listen": "127.0.0.1:0", "routes": [{"cluster": "shop", "bogus": 1}]}
                """, "[\"routes[0].bogus: unknown field\"]",
                """
                {"name": "x", "listen": "127.0.0.1:0",
                 "routes": [{"cluster": "shop", "requestHeaders": {"set": {"x-env": "a\\r\\nx-evil: 1"}}}]}
                """, "[\"listeners[1].routes[0].requestHeaders.set.x-env: holds CR, LF, NUL or another control character\"]",
                """
                {"name": "x", "listen": "127.0.0.1:0", "routes": [{"cluster": "nope"}]}
                """, "[\"listeners[1].routes[0].cluster: unknown cluster 'nope'\"]",
                """
                {"name": "x", "listen": "127.0.0.1:0", "routes": [{"match": {"pathRegex": "/(a"}, "cluster": "shop"}]}
                """, "[\"listeners[1].routes[0].match.pathRegex: not an RE2 expression: missing closing )\"]");
        for (Map.Entry<String, String> body : refused.entrySet()) {
            ApiClient.Response response = api.post("/api/listeners", body.getKey());
            assertEquals(400, response.status(), response.body());
            assertEquals("invalid configuration", response.json().path("error").asText(), response.body());
            assertEquals(body.getValue(), details(response), body.getKey());
        }
        ApiClient.Response badTable = api.put("/api/listeners/edge/routes", """
                {"routes": [{"cluster": "shop", "responseHeaders": {"set": {"x-a": "1\\n2"}}}]}
                """);
        assertEquals(400, badTable.status(), badTable.body());
        assertEquals("[\"listeners[0].routes[0].responseHeaders.set.x-a: holds CR, LF, NUL or another control"
                + " character\"]", details(badTable));
        ApiClient.Response extra = api.put("/api/listeners/edge/routes", "{\"routes\": [], \"listen\": \":1\"}");
        assertEquals(400, extra.status(), extra.body());
        assertTrue(details(extra).startsWith("[\"listen: unknown field"), details(extra));
        ApiClient.Response empty = api.put("/api/listeners/edge/routes", "{\"routes\": []}");
        assertEquals(400, empty.status(), empty.body());
        assertEquals("[\"listeners[0].routes: missing (a listener needs at least one route)\"]", details(empty));
        assertEquals(before, Files.readString(configFile), "a refused change must not touch the file");
        assertEquals(1, api.get("/api/listeners").json().path("listeners").size());
    }

    @Test
    void replacingTheRouteTableTakesEffectAtOnceAndDeleteClosesThePort() throws Exception {
        ApiClient.Response created = createEdge();
        assertEquals("shop /cart", fetch(created, "/cart").body());
        ApiClient.Response replaced = api.put("/api/listeners/edge/routes", """
                {"routes": [{"name": "closed", "respond": {"status": 503, "body": "maintenance"}}]}
                """);
        assertEquals(200, replaced.status(), replaced.body());
        assertEquals("closed", replaced.json().path("routes").get(0).path("name").asText());
        assertEquals("closed", configOnDisk().path("listeners").get(0).path("routes").get(0).path("name").asText());
        HttpResponse<String> answer = fetch(created, "/cart");
        assertEquals(503, answer.statusCode());
        assertEquals("maintenance", answer.body());
        assertEquals(created.json().path("listen").path("bound").asText(),
                api.get("/api/listeners/edge").json().path("listen").path("bound").asText(), "the port is kept");

        ApiClient.Response whole = api.put("/api/listeners/edge", """
                {"listen": "127.0.0.1:0", "maxConnectionsPerClient": 4,
                 "routes": [{"name": "again", "cluster": "shop"}]}
                """);
        assertEquals(200, whole.status(), whole.body());
        assertEquals("edge", whole.json().path("name").asText(), "the name comes from the URL");
        assertEquals(4, configOnDisk().path("listeners").get(0).path("maxConnectionsPerClient").asInt());
        // A new connection: a connection-level change rebuilds the listener, and the client's pooled connection
        // to the old one is drained (HTTP/2 GOAWAY), which the JDK client may report instead of retrying.
        HttpClient fresh = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        assertEquals("shop /cart", fetch(fresh, whole, "/cart").body());

        assertEquals(204, api.delete("/api/listeners/edge").status());
        assertTrue(configOnDisk().path("listeners").isMissingNode(), configOnDisk().toString());
        assertEquals(404, api.get("/api/listeners/edge").status());
        fresh = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpClient afterDelete = fresh;
        assertThrows(ConnectException.class, () -> fetch(afterDelete, created, "/cart"));
    }

    @Test
    void rateLimitsShowTheirKeyTableAndReplicaShareAndAreCountedInMetrics() throws Exception {
        ApiClient.Response limit = api.put("/api/rate-limits/per-client",
                "{\"key\": \"clientIp\", \"requestsPerSecond\": 0.01, \"burst\": 1, \"maxKeys\": 1000}");
        assertEquals(201, limit.status(), limit.body());
        assertEquals("/api/rate-limits/per-client", limit.header("Location"));
        ApiClient.Response created = api.post("/api/listeners", EDGE.replace("\"cluster\": \"shop\"",
                "\"cluster\": \"shop\", \"rateLimit\": \"per-client\""));
        assertEquals(201, created.status(), created.body());
        assertEquals(200, fetch(created, "/cart").statusCode());
        assertEquals(429, fetch(created, "/cart").statusCode());

        JsonNode limits = api.get("/api/listeners").json().path("rateLimits");
        JsonNode perClient = limits.path("per-client");
        assertEquals(1, perClient.path("replicas").asInt(), perClient.toString());
        assertEquals(0.01, perClient.path("enforcedRequestsPerSecond").asDouble(), 1e-9);
        assertEquals(1, perClient.path("keys").asInt());
        assertEquals(1000, perClient.path("config").path("maxKeys").asInt());
        int capacity = perClient.path("maxKeys").asInt();
        assertTrue(capacity > 0 && capacity <= 1000, "the table holds at most maxKeys: " + capacity);
        assertTrue(perClient.path("tableBytes").asLong() > 0, perClient.toString());
        assertEquals(1, perClient.path("limited").asLong());
        assertEquals("clientIp", perClient.path("config").path("key").asText());
        assertEquals(perClient, api.get("/api/rate-limits/per-client").json());
        assertEquals("per-client", configOnDisk().path("listeners").get(0).path("routes").get(1).path("rateLimit").asText());

        ExpositionParser metrics = ExpositionParser.parse(api.get("/metrics").body());
        assertEquals(1, metrics.value("loadwise_rate_limited_total", Map.of("limit", "per-client")));
        assertEquals(1, metrics.value("loadwise_rate_limit_keys", Map.of("limit", "per-client")));
        assertEquals(perClient.path("tableBytes").asLong(),
                metrics.value("loadwise_rate_limit_table_bytes", Map.of("limit", "per-client")));
        assertEquals(0.01, metrics.value("loadwise_rate_limit_enforced_requests_per_second",
                Map.of("limit", "per-client")), 1e-9);
        awaitTrue(() -> route("edge", 1).path("byStatusClass").path("4xx").asLong() == 1, "the 429 counted");
        metrics = ExpositionParser.parse(api.get("/metrics").body());
        assertEquals(1, metrics.value("loadwise_route_requests_total",
                Map.of("listener", "edge", "route", "app", "code_class", "2xx")));
        assertEquals(1, metrics.value("loadwise_route_requests_total",
                Map.of("listener", "edge", "route", "app", "code_class", "4xx")));
        assertEquals(0, metrics.value("loadwise_route_requests_total",
                Map.of("listener", "edge", "route", "health", "code_class", "2xx")));
        assertEquals(0, metrics.value("loadwise_listener_rejected_per_client_total", Map.of("listener", "edge")));
        assertEquals("counter", metrics.types.get("loadwise_route_requests_total"));
        // termination states: the 429 is the listener's own answer (RH), the 200 the cluster's normal end
        assertEquals(1, metrics.value("loadwise_listener_terminations_total", Map.of("listener", "edge", "state", "RH")));
        assertEquals(1, metrics.value("loadwise_cluster_terminations_total", Map.of("cluster", "shop", "state", "--")));
        assertEquals(1, metrics.all("loadwise_listener_terminations_total").size(), "only states that occurred");
        assertEquals("counter", metrics.types.get("loadwise_cluster_terminations_total"));

        ApiClient.Response inUse = api.delete("/api/rate-limits/per-client");
        assertEquals(400, inUse.status(), inUse.body());
        assertEquals("[\"listeners[0].routes[1].rateLimit: unknown rate limit 'per-client' (rateLimits has [])\"]",
                details(inUse));
        ApiClient.Response bad = api.put("/api/rate-limits", "{\"per-client\": {\"key\": \"clientIp\"}, \"x\": {\"rps\": 1}}");
        assertEquals(400, bad.status(), bad.body());
        assertEquals("[\"x.rps: unknown field\"]", details(bad));
        assertEquals(404, api.get("/api/rate-limits/nope").status());
        assertEquals(404, api.delete("/api/rate-limits/nope").status());
        assertNotNull(configOnDisk().path("rateLimits").get("per-client"));
    }

    /** The body of the {@code curl ... -d '...'} example in docs/rest-api.md that follows {@code command}. */
    private static String docExample(String command) throws IOException {
        String doc = Files.readString(java.nio.file.Path.of(System.getProperty("user.dir"))
                .resolve("../docs/rest-api.md").normalize());
        int at = doc.indexOf(command + " -d '");
        assertTrue(at >= 0, "docs/rest-api.md has no example " + command);
        int start = at + command.length() + " -d '".length();
        return doc.substring(start, doc.indexOf("'", start)).replace("0.0.0.0:8080", "127.0.0.1:0");
    }

    @Test
    void theExamplesOfTheRestApiDocWork() throws Exception {
        ApiClient.Response limit = api.put("/api/rate-limits/per-client", docExample("-X PUT $API/rate-limits/per-client"));
        assertEquals(201, limit.status(), limit.body());
        ApiClient.Response created = api.post("/api/listeners", docExample("-X POST $API/listeners"));
        assertEquals(201, created.status(), created.body());
        assertEquals("ok", fetch(created, "/healthz").body());
        ApiClient.Response routes = api.put("/api/listeners/edge/routes", docExample("-X PUT $API/listeners/edge/routes"));
        assertEquals(200, routes.status(), routes.body());
        HttpResponse<String> answer = fetch(created, "/healthz");
        assertEquals(503, answer.statusCode());
        assertEquals("back soon", answer.body());
    }
}
