package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.loadwise.console.replicas.SeriesDocument;
import io.loadwise.console.store.SeriesCatalog;
import io.loadwise.console.store.SeriesGraph;
import io.loadwise.console.store.SeriesPoints;
import io.loadwise.console.store.Window;
import io.loadwise.console.testing.ApiClient;
import io.loadwise.console.testing.Await;
import io.loadwise.console.testing.ConsoleFixture;
import io.loadwise.console.testing.TrafficLoop;
import io.loadwise.dispatcher.control.ReplicaInfo;
import io.loadwise.testsupport.SilentServer;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real in-process replicas (dispatcher, console and metric stores each, same token, same cluster
 * {@code shop}) that list each other as the etcd registry would, plus peers that are real HTTP servers: one
 * serving a recorded series, and ones that stall, answer garbage, answer too much or answer another step.
 * {@code GET /api/clusters/shop/replicas/series/...} on one replica fetches the others' series over HTTP, sums
 * them on its own grid and reports the broken peers as not answering, within its deadline.
 */
class ReplicaSeriesApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** What the recorded peer reports at every step. */
    private static final double RECORDED = 2.5;

    @TempDir
    Path dir;
    private ConsoleFixture r1;
    private ConsoleFixture r2;
    private final List<ReplicaInfo> registry = new CopyOnWriteArrayList<>();
    private final List<AutoCloseable> extras = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void start() throws Exception {
        r1 = new ConsoleFixture(Files.createDirectories(dir.resolve("r1")));
        r2 = new ConsoleFixture(Files.createDirectories(dir.resolve("r2")));
        registry.add(entry("r1", r1.base()));
        registry.add(entry("r2", r2.base()));
        r1.dispatcher.setReplica("r1", () -> List.copyOf(registry));
        r2.dispatcher.setReplica("r2", () -> List.copyOf(registry));
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : extras) {
            c.close();
        }
        r1.close();
        r2.close();
    }

    private static ReplicaInfo entry(String id, String adminUrl) {
        return new ReplicaInfo(id, adminUrl, List.of(), "test", "2026-11-23T14:00:00Z");
    }

    private static ApiClient api(ConsoleFixture replica) {
        return new ApiClient(replica.adminPort, ConsoleFixture.TOKEN);
    }

    private static JsonNode ok(ApiClient.Response response) {
        assertEquals(200, response.status(), response.body());
        return response.json();
    }

    /** timestamp → value (null for unknown) of a document with {@code timestamps} and {@code values}. */
    private static Map<Long, Double> byTime(JsonNode timestamps, JsonNode values) {
        assertEquals(timestamps.size(), values.size());
        Map<Long, Double> out = new HashMap<>();
        for (int i = 0; i < timestamps.size(); i++) {
            out.put(timestamps.get(i).asLong(), values.get(i).isNull() ? null : values.get(i).asDouble());
        }
        return out;
    }

    private static Map<Long, Double> own(ConsoleFixture replica, String metric) {
        JsonNode doc = ok(api(replica).get("/api/clusters/shop/series/" + metric + ".json?window=10m"));
        return byTime(doc.path("timestamps"), doc.path("values"));
    }

    private static long positive(Map<Long, Double> series) {
        return series.values().stream().filter(v -> v != null && v > 0).count();
    }

    /** Steps with a value above 0 that are old enough for every replica to have written them. */
    private static long settledPositive(Map<Long, Double> series) {
        long settled = System.currentTimeMillis() / 1000 - 6;
        return series.entrySet().stream().filter(e -> e.getKey() <= settled && e.getValue() != null && e.getValue() > 0)
                .count();
    }

    private static JsonNode replica(JsonNode body, String id) {
        for (JsonNode r : body.path("replicas")) {
            if (r.path("id").asText().equals(id)) {
                return r;
            }
        }
        throw new AssertionError("no replica " + id + " in " + body);
    }

    @Test
    void theSumIsTheSumOfBothReplicasOwnSeriesAtEveryStep() throws Exception {
        try (TrafficLoop one = TrafficLoop.start(r1.listener("shop"), Duration.ofSeconds(60));
                TrafficLoop two = TrafficLoop.start(r2.listener("shop"), Duration.ofSeconds(60))) {
            Await.until(() -> settledPositive(own(r1, "TD_AVE_THROUGHPUT")) >= 3
                    && settledPositive(own(r2, "TD_AVE_THROUGHPUT")) >= 3,
                    "three recorded seconds of throughput on each replica, at least 6 s old");
        }

        JsonNode body = ok(api(r1).get("/api/clusters/shop/replicas/series/TD_AVE_THROUGHPUT.json?window=10m"));
        Map<Long, Double> mine = own(r1, "TD_AVE_THROUGHPUT");
        Map<Long, Double> theirs = own(r2, "TD_AVE_THROUGHPUT");

        assertEquals("sum", body.path("view").asText());
        assertTrue(body.path("additive").asBoolean());
        assertEquals(2, body.path("answered").asInt());
        assertTrue(replica(body, "r1").path("self").asBoolean());
        assertTrue(replica(body, "r2").path("answered").asBoolean(), replica(body, "r2").toString());
        assertEquals(1, body.path("step").asLong());
        Map<Long, Double> sum = byTime(body.path("timestamps"), body.path("values"));
        // Steps a few seconds old are final on both replicas: the sum was read before the two own series.
        long settled = body.path("end").asLong() - 5;
        int compared = 0;
        for (Map.Entry<Long, Double> point : sum.entrySet()) {
            long t = point.getKey();
            if (t > settled || !mine.containsKey(t) || !theirs.containsKey(t)) {
                continue;
            }
            Double a = mine.get(t);
            Double b = theirs.get(t);
            Double expected = a == null && b == null ? null : (a == null ? 0 : a) + (b == null ? 0 : b);
            if (expected == null) {
                assertTrue(point.getValue() == null, "unknown on both replicas at " + t + ": " + point.getValue());
            } else {
                assertNotNull(point.getValue(), "known on a replica at " + t);
                assertEquals(expected, point.getValue(), 1e-9, "at " + t);
                if (a != null && a > 0 && b != null && b > 0) {
                    compared++;
                }
            }
        }
        assertTrue(compared >= 2, "steps with traffic on both replicas compared: " + compared);

        JsonNode each = ok(api(r2).get("/api/clusters/shop/replicas/series/TD_AVE_THROUGHPUT.json?window=10m&view=each"));
        assertTrue(each.path("values").isMissingNode(), "no sum in view=each");
        assertTrue(replica(each, "r2").path("self").asBoolean(), "seen from the other replica");
        assertEquals(each.path("timestamps").size(), replica(each, "r1").path("values").size());
        assertTrue(positive(byTime(each.path("timestamps"), replica(each, "r1").path("values"))) >= 3,
                "r1's series fetched by r2 over HTTP");
    }

    @Test
    void aRecordedPeerIsAddedAndSlowMalformedOversizedAndMisalignedPeersAreSkippedAndReported() throws Exception {
        registry.remove(1); // r2 out: r1 and peers whose answers are known
        SilentServer stalled = new SilentServer(); // accepts, never answers
        extras.add(stalled);
        HttpServer peers = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        peers.createContext("/recorded/api/clusters/shop/series/", exchange -> recorded(exchange, Window.TEN_MINUTES));
        peers.createContext("/coarse/api/clusters/shop/series/", exchange -> recorded(exchange, Window.ONE_DAY));
        peers.createContext("/garbage/api/clusters/shop/series/", exchange -> send(exchange, 200,
                "<html>not json</html>".getBytes(StandardCharsets.UTF_8)));
        peers.createContext("/inconsistent/api/clusters/shop/series/", exchange -> send(exchange, 200,
                "{\"metric\":\"TD_AVE_CONNS_ACT\",\"step\":1,\"timestamps\":[1,2,3],\"values\":[1]}"
                        .getBytes(StandardCharsets.UTF_8)));
        peers.createContext("/huge/api/clusters/shop/series/", exchange -> {
            exchange.sendResponseHeaders(200, 0); // chunked: no length to refuse up front
            byte[] chunk = new byte[64 * 1024];
            java.util.Arrays.fill(chunk, (byte) ' ');
            try (OutputStream out = exchange.getResponseBody()) {
                for (int i = 0; i < 64; i++) { // 4 MiB, past the 256 KiB cap
                    out.write(chunk);
                }
            } catch (IOException refused) {
                // the reader gave up at the cap: what this test expects
            }
        });
        peers.start();
        extras.add(() -> peers.stop(0));
        String base = "http://127.0.0.1:" + peers.getAddress().getPort();
        registry.add(entry("recorded", base + "/recorded"));
        registry.add(entry("stalled", "http://127.0.0.1:" + stalled.port()));
        registry.add(entry("garbage", base + "/garbage"));
        registry.add(entry("inconsistent", base + "/inconsistent"));
        registry.add(entry("huge", base + "/huge"));
        registry.add(entry("coarse", base + "/coarse"));

        long start = System.nanoTime();
        JsonNode body = ok(api(r1).get("/api/clusters/shop/replicas/series/TD_AVE_CONNS_ACT.json?window=10m"));
        long millis = (System.nanoTime() - start) / 1_000_000;

        assertTrue(millis < 4_000, "answered in " + millis + " ms: the stalled peer is cut at the 2 s deadline");
        assertEquals(2, body.path("answered").asInt(), body.toString());
        assertTrue(replica(body, "r1").path("answered").asBoolean());
        assertTrue(replica(body, "recorded").path("answered").asBoolean(), replica(body, "recorded").toString());
        assertTrue(replica(body, "stalled").path("problem").asText().startsWith("no answer within 2000 ms"),
                replica(body, "stalled").toString());
        assertEquals("its answer is not a series document", replica(body, "garbage").path("problem").asText());
        assertEquals("its answer is not a usable series: timestamps and values differ in number",
                replica(body, "inconsistent").path("problem").asText());
        assertEquals("its answer is larger than 262144 bytes", replica(body, "huge").path("problem").asText());
        assertEquals("its answer is not a usable series: step 120 s, not 1 s",
                replica(body, "coarse").path("problem").asText());
        for (String broken : new String[] {"stalled", "garbage", "inconsistent", "huge", "coarse"}) {
            assertFalse(replica(body, broken).path("answered").asBoolean(), broken);
        }
        // r1 has no client connections (0, or unknown before its first sample): the sum is the recorded peer's
        // value at every step; the first and last may fall outside the peer's grid, read a moment apart.
        JsonNode values = body.path("values");
        assertEquals(601, values.size());
        for (int i = 1; i < values.size() - 1; i++) {
            assertEquals(RECORDED, values.get(i).asDouble(), 1e-9, "step " + i + " of " + values);
        }
    }

    /** A peer replica answering a recorded series: {@value #RECORDED} at every step of the window's grid. */
    private static void recorded(HttpExchange exchange, Window window) throws IOException {
        String file = exchange.getRequestURI().getPath();
        String metric = file.substring(file.lastIndexOf('/') + 1).replace(".json", "");
        SeriesPoints grid = SeriesPoints.unknown(window, System.currentTimeMillis() / 1000);
        java.util.Arrays.fill(grid.values(), RECORDED);
        byte[] body = JSON.writeValueAsBytes(SeriesDocument.of("shop", SeriesCatalog.CLUSTER.find(metric),
                Window.TEN_MINUTES, "recorded", grid));
        send(exchange, 200, body);
    }

    private static void send(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Test
    void meansAreRefusedForASumAndShownPerReplicaAndBadQueriesGetClearErrors() {
        ApiClient.Response mean = api(r1).get("/api/clusters/shop/replicas/series/TD_AVE_RSPS_TIME.json?window=10m");
        assertEquals(400, mean.status());
        assertEquals("TD_AVE_RSPS_TIME is a mean time (ms): it does not add up over replicas; ask view=each for one "
                + "line per replica. Series that add up: TD_AVE_CONNS_ACT, TD_AVE_FAIL_RQSTS, TD_AVE_RQSTS_ACT, "
                + "TD_AVE_SRV_SELS, TD_AVE_THROUGHPUT, TD_AVE_TRAF_IN, TD_AVE_TRAF_OUT, TD_QUEUE_LENGTH, TD_RETRIES",
                mean.json().path("error").asText());
        assertEquals(400, api(r1).get("/api/clusters/shop/replicas/graphs/TD_AVE_SLOWDOWN.png").status());
        assertTrue(api(r1).get("/api/clusters/shop/replicas/graphs/TD_AVE_SLOWDOWN.png").json().path("error").asText()
                .startsWith("TD_AVE_SLOWDOWN is a ratio: it does not add up"));

        JsonNode each = ok(api(r1).get("/api/clusters/shop/replicas/series/TD_AVE_RSPS_TIME.json?window=10m&view=each"));
        assertFalse(each.path("additive").asBoolean());
        assertEquals(2, each.path("answered").asInt(), each.toString());
        assertEquals(601, replica(each, "r2").path("values").size());

        ApiClient.Response view = api(r1).get("/api/clusters/shop/replicas/series/TD_AVE_THROUGHPUT.json?view=all");
        assertEquals(400, view.status());
        assertEquals("query parameter view: 'all' is not one of [sum, each]", view.json().path("error").asText());
        ApiClient.Response window = api(r1).get("/api/clusters/shop/replicas/series/TD_AVE_THROUGHPUT.json?window=2h");
        assertEquals(400, window.status());
        assertTrue(window.json().path("error").asText().contains("'2h' is not one of [10m, 1h, 24h, 30d]"), window.body());
        ApiClient.Response metric = api(r1).get("/api/clusters/shop/replicas/series/NOPE.json");
        assertEquals(404, metric.status());
        assertTrue(metric.json().path("error").asText().startsWith("unknown metric 'NOPE'"), metric.body());
        ApiClient.Response cluster = api(r1).get("/api/clusters/nope/replicas/series/TD_AVE_THROUGHPUT.json");
        assertEquals(404, cluster.status());
        assertEquals("no cluster nope and no recorded metrics of it", cluster.json().path("error").asText());
        ApiClient.Response extension = api(r1).get("/api/clusters/shop/series/TD_AVE_THROUGHPUT.xml");
        assertEquals(404, extension.status());
        assertEquals("expected {metric}.csv or {metric}.json, got 'TD_AVE_THROUGHPUT.xml'",
                extension.json().path("error").asText());

        for (String path : new String[] {"/api/clusters/shop/series/TD_AVE_THROUGHPUT.json",
                "/api/clusters/shop/replicas/series/TD_AVE_THROUGHPUT.json",
                "/api/clusters/shop/replicas/graphs/TD_AVE_THROUGHPUT.png"}) {
            assertEquals(401, api(r1).send("GET", path, null, null).status(), path);
            assertEquals(401, api(r1).send("GET", path, null, "Bearer wrong").status(), path);
        }
    }

    @Test
    void aReplicasOwnSeriesIsCappedAtAThousandPointsAndSaysSo() {
        JsonNode tenMinutes = ok(api(r1).get("/api/clusters/shop/series/TD_AVE_THROUGHPUT.json?window=10m"));
        assertEquals("r1", tenMinutes.path("replica").asText());
        assertEquals("TD_AVE_THROUGHPUT", tenMinutes.path("metric").asText());
        assertEquals("req/s", tenMinutes.path("unit").asText());
        assertEquals(1, tenMinutes.path("step").asLong());
        assertFalse(tenMinutes.path("consolidated").asBoolean());
        assertEquals(601, tenMinutes.path("timestamps").size());

        JsonNode hour = ok(api(r1).get("/api/clusters/shop/series/TD_AVE_THROUGHPUT.json?window=1h"));
        assertEquals(1000, hour.path("pointCap").asInt());
        assertEquals(1, hour.path("archiveStep").asLong());
        assertEquals(4, hour.path("step").asLong(), "3601 one-second steps do not fit in 1000 points");
        assertTrue(hour.path("consolidated").asBoolean());
        assertEquals(901, hour.path("timestamps").size());
        assertEquals(hour.path("end").asLong() - 3600, hour.path("start").asLong());
        for (JsonNode t : hour.path("timestamps")) {
            assertEquals(0, t.asLong() % 4, "aligned to the step, so replicas share timestamps");
        }
        JsonNode month = ok(api(r1).get("/api/clusters/shop/series/TD_AVE_THROUGHPUT.json?window=30d"));
        assertEquals(3600, month.path("step").asLong());
        assertEquals(721, month.path("values").size());
        JsonNode node = ok(api(r1).get("/api/clusters/shop/nodes/a/series/JVM_HEAP_USED%25.json?window=10m"));
        assertEquals("JVM_HEAP_USED%", node.path("metric").asText());
        assertTrue(node.path("values").get(0).isNull(), "a node without an agent: unknown, not 0");
    }

    @Test
    void theGraphDrawsTheSumAsOneLineOrEachReplicaAsItsOwn() throws Exception {
        registry.remove(1);
        HttpServer peer = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        peer.createContext("/api/clusters/shop/series/", exchange -> recorded(exchange, Window.TEN_MINUTES));
        peer.start();
        extras.add(() -> peer.stop(0));
        registry.add(entry("recorded", "http://127.0.0.1:" + peer.getAddress().getPort()));

        BufferedImage sum = png("/api/clusters/shop/replicas/graphs/TD_AVE_CONNS_ACT.png?window=10m&view=sum");
        assertTrue(linePixels(sum, SeriesGraph.LINE_COLORS.get(0)) > SeriesGraph.PLOT_WIDTH / 2, "the sum's line");
        assertEquals(0, linePixels(sum, SeriesGraph.LINE_COLORS.get(1)), "no second line in the sum");
        BufferedImage each = png("/api/clusters/shop/replicas/graphs/TD_AVE_CONNS_ACT.png?window=10m&view=each");
        assertTrue(linePixels(each, SeriesGraph.LINE_COLORS.get(1)) > SeriesGraph.PLOT_WIDTH / 2,
                "the recorded peer's own line, in the second colour");
        BufferedImage mean = png("/api/clusters/shop/replicas/graphs/TD_AVE_RSPS_TIME.png?window=1h&view=each");
        assertTrue(mean.getWidth() > SeriesGraph.PLOT_WIDTH);
    }

    private BufferedImage png(String path) throws Exception {
        HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(r1.base() + path))
                .header("Authorization", "Bearer " + ConsoleFixture.TOKEN).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode(), () -> new String(r.body(), StandardCharsets.UTF_8));
        assertEquals("image/png", r.headers().firstValue("Content-Type").orElse(""));
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(r.body()));
        assertNotNull(image, "not a PNG: " + path);
        return image;
    }

    /**
     * Pixels of one colour in the plot area (the canvas-coloured rectangle and the 2 pixels around it, where a
     * line at the top or bottom of the scale lies), legend left out.
     */
    private static int linePixels(BufferedImage image, Color colour) {
        int canvas = SeriesGraph.CANVAS.getRGB() & 0xffffff;
        int line = colour.getRGB() & 0xffffff;
        int left = Integer.MAX_VALUE;
        int top = Integer.MAX_VALUE;
        int right = -1;
        int bottom = -1;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                if ((image.getRGB(x, y) & 0xffffff) == canvas) {
                    left = Math.min(left, x);
                    right = Math.max(right, x);
                    top = Math.min(top, y);
                    bottom = Math.max(bottom, y);
                }
            }
        }
        assertTrue(right - left >= SeriesGraph.PLOT_WIDTH / 2 && bottom - top >= SeriesGraph.PLOT_HEIGHT / 2,
                "no plot area found");
        int count = 0;
        for (int y = top - 2; y <= bottom + 2; y++) {
            for (int x = left; x <= right; x++) {
                if ((image.getRGB(x, y) & 0xffffff) == line) {
                    count++;
                }
            }
        }
        return count;
    }
}
