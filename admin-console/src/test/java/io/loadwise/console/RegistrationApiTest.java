package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.loadwise.console.testing.ApiClient;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.config.ConfigValidator;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.runtime.Dispatcher;
import io.loadwise.dispatcher.runtime.ModeListenerFactory;
import io.loadwise.policy.PolicyRegistry;
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
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Nodes that register themselves, end to end over the real REST API and real HTTP nodes: registration and
 * heartbeat, per-context routing through the real listener, the registration token's scope, every bad
 * registration, the rate limit, deregistration (drain, then removal) and the TTL.
 */
class RegistrationApiTest {

    static final String TOKEN = "test-token-5f2c9a41d7";
    static final String REG_TOKEN = "reg-token-8e1b7c55aa";
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    Path configFile;
    Transport transport;
    Dispatcher control;
    ApiClient api;
    ApiClient reg;
    final List<HttpServer> nodes = new ArrayList<>();
    final CountDownLatch release = new CountDownLatch(1);
    final CountDownLatch slowArrived = new CountDownLatch(1);

    @BeforeEach
    void start() throws Exception {
        for (String name : new String[] {"a", "b", "c"}) {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
            server.createContext("/", exchange -> {
                String path = exchange.getRequestURI().getRawPath();
                if (path.endsWith("/slow")) {
                    slowArrived.countDown();
                    try {
                        release.await(20, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                byte[] body = (name + " " + path).getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            server.start();
            nodes.add(server);
        }
        configFile = dir.resolve("loadwise.json");
        Files.writeString(configFile, """
                {"admin": {"listen": "127.0.0.1:0", "token": "%s", "registrationToken": "%s", "dataDir": "%s"},
                 "clusters": [
                   {"name": "web", "mode": "http", "listen": "127.0.0.1:0", "policy": "round-robin",
                    "registration": {"enabled": true, "allowedNetworks": ["127.0.0.0/8"], "maxNodes": 3},
                    "nodes": [{"name": "fixed", "address": "%s", "contexts": ["/static"]}]},
                   {"name": "short", "mode": "http", "listen": "127.0.0.1:0", "policy": "round-robin",
                    "registration": {"enabled": true, "allowedNetworks": ["127.0.0.0/8"], "ttlMs": 1000}},
                   {"name": "closed", "mode": "http", "listen": "127.0.0.1:0", "policy": "round-robin",
                    "nodes": [{"name": "n1", "address": "%s"}]}]}
                """.formatted(TOKEN, REG_TOKEN, dir.resolve("data").toString().replace("\\", "/"), address(2),
                address(2)));
        PolicyRegistry policies = PolicyRegistry.load();
        LoadwiseConfig config = ConfigLoader.load(configFile);
        new ConfigValidator(policies).check(config);
        transport = new Transport(1);
        control = new Dispatcher(config, new ConfigStore(configFile), policies, transport, new ModeListenerFactory());
        control.start(TOKEN, true);
        int port = control.controlPlane().port();
        api = new ApiClient(port, TOKEN);
        reg = new ApiClient(port, REG_TOKEN);
    }

    @AfterEach
    void stop() throws IOException {
        release.countDown();
        if (control != null) {
            control.close();
        }
        if (transport != null) {
            transport.close();
        }
        nodes.forEach(s -> s.stop(0));
    }

    private String address(int i) {
        return "127.0.0.1:" + nodes.get(i).getAddress().getPort();
    }

    private static String body(String name, String address, String route, String... contexts) {
        StringBuilder b = new StringBuilder("{\"name\": \"" + name + "\", \"address\": \"" + address + "\"");
        if (route != null) {
            b.append(", \"route\": \"").append(route).append('"');
        }
        b.append(", \"contexts\": [");
        for (int i = 0; i < contexts.length; i++) {
            b.append(i == 0 ? "" : ", ").append('"').append(contexts[i]).append('"');
        }
        return b.append("]}").toString();
    }

    /**
     * One request on a new connection: a registration change rebuilds the cluster, and a connection opened
     * before it gets one more answer from the previous state (with {@code Connection: close}); these checks
     * are about the state now.
     */
    private HttpResponse<String> get(String cluster, String path) throws Exception {
        InetSocketAddress listener = control.boundAddress(cluster);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + listener.getPort() + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode node(String cluster, String name) {
        for (JsonNode n : api.get("/api/clusters/" + cluster).json().path("nodes")) {
            if (n.path("name").asText().equals(name)) {
                return n;
            }
        }
        return null;
    }

    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out waiting for " + what);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(20_000_000L);
        }
    }

    @Test
    void registersHeartbeatsRoutesByContextAndStaysOutOfTheFile() throws Exception {
        String before = Files.readString(configFile);
        ApiClient.Response first = reg.post("/api/clusters/web/registrations", body("a", address(0), "jvm-a", "/app"));
        assertEquals(201, first.status(), first.body());
        assertEquals("/api/clusters/web/nodes/a", first.header("Location"));
        assertEquals(15_000, first.json().path("ttlMs").asInt(), "the default TTL");
        assertEquals(201, reg.post("/api/clusters/web/registrations", body("b", address(1), null, "/shop")).status());
        ApiClient.Response heartbeat = reg.post("/api/clusters/web/registrations", body("a", address(0), "jvm-a", "/app"));
        assertEquals(200, heartbeat.status(), heartbeat.body());

        JsonNode a = node("web", "a");
        assertTrue(a.path("registered").asBoolean(), a.toString());
        assertEquals("[\"/app\"]", a.path("contexts").toString());
        assertEquals("jvm-a", a.path("route").asText());
        JsonNode fixed = node("web", "fixed");
        assertTrue(fixed.path("registered").isMissingNode(), "a configured node is not marked: " + fixed);
        assertEquals("[\"/static\"]", fixed.path("contexts").toString());
        assertEquals(before, Files.readString(configFile), "registered nodes are never written to the file");

        assertEquals("a /app/orders", get("web", "/app/orders").body());
        assertEquals("b /shop", get("web", "/shop").body());
        assertEquals("c /static/x.css", get("web", "/static/x.css").body());
        HttpResponse<String> none = get("web", "/admin");
        assertEquals(404, none.statusCode());
        assertFalse(none.body().contains("Exception"), none.body());
        assertEquals(404, get("web", "/application").statusCode());
    }

    @Test
    void theRegistrationTokenReachesOnlyTheRegistrationCalls() {
        assertEquals(201, reg.post("/api/clusters/web/registrations", body("a", address(0), null, "/app")).status());
        assertEquals(202, reg.delete("/api/clusters/web/registrations/a").status());
        List<String[]> elsewhere = List.of(
                new String[] {"GET", "/api/clusters"},
                new String[] {"GET", "/api/clusters/web"},
                new String[] {"DELETE", "/api/clusters/web"},
                new String[] {"PUT", "/api/clusters/web/nodes/fixed"},
                new String[] {"PUT", "/api/clusters/web/policy"},
                new String[] {"POST", "/api/reload"},
                new String[] {"GET", "/api/clusters/web/registrations"},
                new String[] {"PUT", "/api/clusters/web/registrations"},
                new String[] {"POST", "/api/clusters/web/registrations/a"},
                new String[] {"GET", "/api/policies"},
                new String[] {"GET", "/metrics"});
        for (String[] call : elsewhere) {
            ApiClient.Response r = reg.send(call[0], call[1], call[0].equals("GET") ? null : "{}", "Bearer " + REG_TOKEN);
            assertEquals(403, r.status(), call[0] + " " + call[1] + ": " + r.body());
            assertTrue(r.json().path("error").asText().startsWith("the registration token may only register"), r.body());
        }
        assertEquals(200, api.get("/api/clusters/web").status(), "the admin token still reaches everything");
    }

    static Stream<Arguments> badRegistrations() {
        return Stream.of(
                Arguments.of("cluster without registration", "/api/clusters/closed/registrations",
                        body("x", "127.0.0.1:9", null, "/app"), 403,
                        "cluster 'closed' takes no registrations (registration.enabled is not true)", null),
                Arguments.of("unknown cluster", "/api/clusters/nope/registrations",
                        body("x", "127.0.0.1:9", null, "/app"), 404, "cluster 'nope': no such cluster", null),
                Arguments.of("address outside the allowed networks", "/api/clusters/web/registrations",
                        body("x", "10.1.2.3:8080", null, "/app"), 403,
                        "address 10.1.2.3:8080 is outside the allowed networks of cluster 'web' [127.0.0.0/8]", null),
                Arguments.of("host name instead of an IP", "/api/clusters/web/registrations",
                        body("x", "localhost:8080", null, "/app"), 400, "invalid registration",
                        "address: 'localhost' is not an IP address (registered nodes give an IP literal; no name is looked up)"),
                Arguments.of("name of a configured node", "/api/clusters/web/registrations",
                        body("fixed", "127.0.0.1:9", null, "/app"), 409,
                        "cluster 'web' has a configured node named 'fixed'; a registered node needs a name of its own", null),
                Arguments.of("missing name and contexts", "/api/clusters/web/registrations",
                        "{\"address\": \"127.0.0.1:9\"}", 400, "invalid registration", "name: missing"),
                Arguments.of("contexts not an array", "/api/clusters/web/registrations",
                        "{\"name\": \"x\", \"address\": \"127.0.0.1:9\", \"contexts\": \"/app\"}", 400,
                        "invalid registration", "contexts: expected an array of strings, got \"/app\""),
                Arguments.of("relative context", "/api/clusters/web/registrations",
                        body("x", "127.0.0.1:9", null, "app"), 400, "invalid registration",
                        "contexts[0]: 'app' must start with '/'"),
                Arguments.of("dot segment context", "/api/clusters/web/registrations",
                        body("x", "127.0.0.1:9", null, "/a/../b"), 400, "invalid registration",
                        "contexts[0]: '/a/../b' has an empty, '.' or '..' segment"),
                Arguments.of("no contexts", "/api/clusters/web/registrations",
                        body("x", "127.0.0.1:9", null), 400, "invalid registration",
                        "contexts: at least one context path is required, such as /app"),
                Arguments.of("unknown field", "/api/clusters/web/registrations",
                        "{\"name\": \"x\", \"address\": \"127.0.0.1:9\", \"contexts\": [\"/a\"], \"weight\": 5}", 400,
                        "invalid registration", "weight: unknown field, expected address, contexts, name, route"),
                Arguments.of("bad route", "/api/clusters/web/registrations",
                        body("x", "127.0.0.1:9", "jvm route", "/a"), 400, "invalid registration",
                        "route: may contain only letters, digits, '.', '_' and '-' (at most 64)"),
                Arguments.of("port out of range", "/api/clusters/web/registrations",
                        body("x", "127.0.0.1:70000", null, "/a"), 400, "invalid registration",
                        "address: port 70000 out of range"),
                Arguments.of("malformed JSON", "/api/clusters/web/registrations", "{\"name\": ", 400,
                        null, null),
                Arguments.of("too large", "/api/clusters/web/registrations",
                        "{\"name\": \"" + "x".repeat(20_000) + "\"}", 413,
                        "request body of 20012 bytes exceeds the limit of 16384 bytes", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRegistrations")
    void badRegistrationsGetTheirOwn4xx(String what, String path, String json, int status, String error,
            String detail) {
        ApiClient.Response r = reg.post(path, json);
        assertEquals(status, r.status(), r.body());
        if (error != null) {
            assertEquals(error, r.json().path("error").asText(), r.body());
        }
        if (detail != null) {
            assertTrue(r.json().path("details").toString().contains(JSON.valueToTree(detail).toString()
                    .replaceAll("^\"|\"$", "")), r.body());
        }
        assertNull(node("web", "x"), "nothing was registered");
    }

    @Test
    void deregisteringUnknownNodesAndWrongTokens() {
        ApiClient.Response r = reg.delete("/api/clusters/web/registrations/ghost");
        assertEquals(404, r.status(), r.body());
        assertEquals("cluster 'web' has no registered node named 'ghost'", r.json().path("error").asText());
        assertEquals(404, reg.delete("/api/clusters/web/registrations/fixed").status(),
                "a configured node cannot be deregistered");
        assertEquals(401, reg.send("POST", "/api/clusters/web/registrations", body("a", address(0), null, "/a"),
                "Bearer not-the-token-at-all").status());
        assertEquals(401, reg.send("POST", "/api/clusters/web/registrations", body("a", address(0), null, "/a"),
                null).status());
    }

    @Test
    void aClusterHoldsAtMostMaxNodesRegisteredNodes() {
        for (int i = 0; i < 3; i++) {
            assertEquals(201, reg.post("/api/clusters/web/registrations",
                    body("n" + i, "127.0.0." + (i + 1) + ":8080", null, "/app")).status());
        }
        ApiClient.Response full = reg.post("/api/clusters/web/registrations", body("n3", "127.0.0.9:8080", null, "/app"));
        assertEquals(409, full.status(), full.body());
        assertEquals("cluster 'web' already holds 3 registered nodes, its registration.maxNodes",
                full.json().path("error").asText());
    }

    @Test
    void registrationCallsAreRateLimitedPerAddress() {
        int accepted = 0;
        ApiClient.Response last = null;
        for (int i = 0; i < 40; i++) {
            last = reg.post("/api/clusters/web/registrations", body("a", address(0), null, "/app"));
            if (last.status() == 429) {
                break;
            }
            accepted++;
        }
        assertTrue(accepted >= 20 && accepted < 40, "accepted " + accepted);
        assertEquals(429, last.status());
        assertTrue(last.json().path("error").asText().startsWith("too many registration calls from this address"),
                last.body());
    }

    @Test
    void deregisterDrainsTheNodeFinishesItsRequestsThenRemovesIt() throws Exception {
        assertEquals(201, reg.post("/api/clusters/web/registrations", body("a", address(0), null, "/app")).status());
        assertEquals(201, reg.post("/api/clusters/web/registrations", body("b", address(1), null, "/shop")).status());
        CompletableFuture<HttpResponse<String>> slow = CompletableFuture.supplyAsync(() -> {
            try {
                return get("web", "/app/slow");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertTrue(slowArrived.await(10, TimeUnit.SECONDS), "the slow request reached node a");

        ApiClient.Response gone = reg.delete("/api/clusters/web/registrations/a");
        assertEquals(202, gone.status(), gone.body());
        assertTrue(gone.json().path("draining").asBoolean());
        assertTrue(node("web", "a").path("draining").asBoolean(), "a drains while its request runs");
        HttpResponse<String> meanwhile = get("web", "/app/x");
        assertEquals(503, meanwhile.statusCode(), "the context's last node drains: 503, never node b");
        assertEquals("b /shop", get("web", "/shop").body());

        release.countDown();
        assertEquals("a /app/slow", slow.get(10, TimeUnit.SECONDS).body(), "the request in flight finished");
        await(() -> node("web", "a") == null, "node a to be removed once idle");
        assertEquals(404, get("web", "/app/x").statusCode(), "no node serves /app any more");
        assertEquals("b /shop", get("web", "/shop").body());
    }

    @Test
    void aNodeWhoseHeartbeatsStopIsRemovedAfterTheTtl() throws Exception {
        long registered = System.nanoTime();
        assertEquals(201, reg.post("/api/clusters/short/registrations", body("a", address(0), null, "/app")).status());
        assertEquals("a /app", get("short", "/app").body());
        await(() -> node("short", "a") == null, "the registration to lapse");
        long lapsedAfterMs = (System.nanoTime() - registered) / 1_000_000;
        assertTrue(lapsedAfterMs >= 1_000, "lapsed after " + lapsedAfterMs + " ms, before its TTL");
        assertEquals(404, get("short", "/app").statusCode());
    }
}
