package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.loadwise.console.testing.ApiClient;
import io.loadwise.console.testing.ConsoleFixture;
import io.loadwise.dispatcher.control.ConfigUnavailableException;
import io.loadwise.dispatcher.control.ReplicaInfo;
import io.loadwise.testsupport.SilentServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real in-process replicas (dispatcher and console each, same token, same cluster {@code shop}) that list
 * each other, as the etcd registry would, plus registry entries for replicas that are dead, stalled or hold
 * another token: {@code GET /api/replicas/figures} on one replica fetches the other's figures over HTTP, sums
 * them, and reports the broken ones as unreachable within its deadline.
 */
class ReplicaFiguresApiTest {

    @TempDir
    Path dir;
    private ConsoleFixture r1;
    private ConsoleFixture r2;
    private final List<ReplicaInfo> registry = new CopyOnWriteArrayList<>();
    private final AtomicReference<RuntimeException> registryFailure = new AtomicReference<>();
    private final List<AutoCloseable> extras = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void start() throws Exception {
        r1 = new ConsoleFixture(Files.createDirectories(dir.resolve("r1")));
        r2 = new ConsoleFixture(Files.createDirectories(dir.resolve("r2")));
        registry.add(entry("r1", r1.base()));
        registry.add(entry("r2", r2.base()));
        r1.dispatcher.setReplica("r1", this::registry);
        r2.dispatcher.setReplica("r2", this::registry);
    }

    private List<ReplicaInfo> registry() {
        RuntimeException failure = registryFailure.get();
        if (failure != null) {
            throw failure;
        }
        return List.copyOf(registry);
    }

    private static ReplicaInfo entry(String id, String adminUrl) {
        return new ReplicaInfo(id, adminUrl, List.of("shop=127.0.0.1:1"), "test", "2026-11-23T14:00:00Z");
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : extras) {
            c.close();
        }
        r1.close();
        r2.close();
    }

    private void traffic(ConsoleFixture replica, int requests) throws Exception {
        for (int i = 0; i < requests; i++) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + replica.listener("shop").getPort() + "/")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode());
        }
    }

    private static ApiClient api(ConsoleFixture replica) {
        return new ApiClient(replica.adminPort, ConsoleFixture.TOKEN);
    }

    private static JsonNode replica(JsonNode body, String id) {
        for (JsonNode r : body.path("replicas")) {
            if (r.path("id").asText().equals(id)) {
                return r;
            }
        }
        throw new AssertionError("no replica " + id + " in " + body);
    }

    private static JsonNode shop(JsonNode clusters) {
        for (JsonNode c : clusters) {
            if (c.path("name").asText().equals("shop")) {
                return c;
            }
        }
        throw new AssertionError("no cluster shop in " + clusters);
    }

    private static long nodeSelections(JsonNode cluster) {
        long sum = 0;
        for (JsonNode n : cluster.path("nodes")) {
            sum += n.path("selections").asLong();
        }
        return sum;
    }

    @Test
    void eachReplicasFiguresAndTheirSumComeFromBothReplicas() throws Exception {
        traffic(r1, 3);
        traffic(r2, 5);

        // The counters are live; the per-second figures follow within a second: poll until both show.
        JsonNode body = null;
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            body = api(r1).get("/api/replicas/figures").json();
            if (shop(body.path("sum")).path("completed").asLong() == 8) {
                break;
            }
        }
        JsonNode self = replica(body, "r1");
        JsonNode other = replica(body, "r2");
        assertTrue(self.path("self").asBoolean());
        assertTrue(self.path("alive").asBoolean());
        assertEquals(r1.base(), self.path("adminUrl").asText());
        assertFalse(other.path("self").asBoolean());
        assertTrue(other.path("alive").asBoolean(), other.toString());
        assertEquals("test", other.path("version").asText());
        assertEquals("2026-11-23T14:00:00Z", other.path("startedAt").asText());
        assertEquals(3, shop(self.path("figures")).path("completed").asLong());
        assertEquals(5, shop(other.path("figures")).path("completed").asLong(), "fetched from r2 over HTTP");
        JsonNode sum = shop(body.path("sum"));
        assertEquals(8, sum.path("completed").asLong());
        assertEquals(3, nodeSelections(shop(self.path("figures"))));
        assertEquals(8, nodeSelections(sum), "per-node selections add up over replicas");
        assertEquals(shop(self.path("figures")).path("throughput").asDouble()
                + shop(other.path("figures")).path("throughput").asDouble(), sum.path("throughput").asDouble(), 1e-9);
        assertNull(body.path("registryProblem").textValue());

        JsonNode fromR2 = api(r2).get("/api/replicas/figures").json();
        assertEquals(8, shop(fromR2.path("sum")).path("completed").asLong(), "the same sum seen from the other replica");
        assertTrue(replica(fromR2, "r2").path("self").asBoolean());
    }

    @Test
    void deadStalledAndForeignReplicasAreUnreachableAndTheAnswerStillComesWithinTheDeadline() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        SilentServer stalled = new SilentServer(); // accepts, never answers
        extras.add(stalled);
        HttpServer foreign = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        foreign.createContext("/", exchange -> {
            exchange.sendResponseHeaders(401, -1);
            exchange.close();
        });
        foreign.start();
        extras.add(() -> foreign.stop(0));
        registry.add(entry("dead", "http://127.0.0.1:" + closedPort));
        registry.add(entry("stalled", "http://127.0.0.1:" + stalled.port()));
        registry.add(entry("other-token", "http://127.0.0.1:" + foreign.getAddress().getPort()));
        registry.add(entry("not-a-url", "javascript:alert(1)"));
        traffic(r2, 2);

        long start = System.nanoTime();
        ApiClient.Response response = api(r1).get("/api/replicas/figures");
        long millis = (System.nanoTime() - start) / 1_000_000;

        assertEquals(200, response.status());
        assertTrue(millis < 4_000, "answered in " + millis + " ms: the stalled replica is cut at the 2 s deadline");
        JsonNode body = response.json();
        assertEquals("connection refused", replica(body, "dead").path("problem").asText());
        assertFalse(replica(body, "dead").path("alive").asBoolean());
        assertTrue(replica(body, "stalled").path("problem").asText().startsWith("no answer within 2000 ms"),
                replica(body, "stalled").toString());
        assertTrue(replica(body, "other-token").path("problem").asText().contains("replicas must share the admin token"));
        assertTrue(replica(body, "not-a-url").path("problem").asText().contains("not an http(s)://host:port URL"));
        assertTrue(replica(body, "r2").path("alive").asBoolean());
        assertEquals(2, shop(body.path("sum")).path("completed").asLong(), "the sum is over the replicas that answered");
    }

    @Test
    void anOversizedOrMalformedAnswerIsRefusedNotRead() throws Exception {
        HttpServer peers = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        peers.createContext("/huge/api/figures", exchange -> {
            exchange.sendResponseHeaders(200, 0); // chunked: no length to refuse up front
            byte[] chunk = new byte[64 * 1024];
            java.util.Arrays.fill(chunk, (byte) ' ');
            try (var out = exchange.getResponseBody()) {
                for (int i = 0; i < 64; i++) { // 4 MiB, past the 1 MiB cap
                    out.write(chunk);
                }
            } catch (IOException refused) {
                // the reader gave up at the cap: what this test expects
            }
        });
        peers.createContext("/garbage/api/figures", exchange -> {
            byte[] body = "{\"replica\": \"x\", \"clusters\": 7}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (var out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        peers.start();
        extras.add(() -> peers.stop(0));
        String base = "http://127.0.0.1:" + peers.getAddress().getPort();
        registry.add(entry("huge", base + "/huge"));
        registry.add(entry("garbage", base + "/garbage"));

        JsonNode body = api(r1).get("/api/replicas/figures").json();

        assertEquals("its answer is larger than 1048576 bytes", replica(body, "huge").path("problem").asText());
        assertEquals("its answer is not a figures document", replica(body, "garbage").path("problem").asText());
        assertTrue(replica(body, "r2").path("alive").asBoolean());
    }

    @Test
    void withTheRegistryUnreachableOnlyThisReplicaIsListedWithTheReason() {
        registryFailure.set(new ConfigUnavailableException("etcd http://127.0.0.1:1 cannot be reached (refused)"));

        JsonNode body = api(r1).get("/api/replicas/figures").json();

        assertEquals(1, body.path("replicas").size());
        assertEquals("r1", body.path("replicas").get(0).path("id").asText());
        assertTrue(body.path("registryProblem").asText().contains("cannot be reached"));
        assertEquals(503, api(r1).get("/api/replicas").status(), "the plain list still says the registry is down");
    }

    @Test
    void ownFiguresNeedTheToken() {
        ApiClient.Response anonymous = api(r1).send("GET", "/api/figures", null, null);
        assertEquals(401, anonymous.status());
        ApiClient.Response own = api(r1).get("/api/figures");
        assertEquals(200, own.status());
        assertEquals("r1", own.json().path("replica").asText());
        assertEquals("shop", own.json().path("clusters").get(0).path("name").asText());
    }
}
