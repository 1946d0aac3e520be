package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.loadwise.console.store.SeriesGraph;
import io.loadwise.console.testing.ApiClient;
import io.loadwise.console.testing.Await;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.policy.AgentSample;
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
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The graph, series and listing endpoints against the real dispatcher: an HTTP cluster over two real
 * HTTP nodes, real traffic through it, the real recorder writing the stores once a second. Node "a"
 * gets agent samples the way the node monitor delivers them; node "b" gets none.
 */
class MetricsEndpointsTest extends ApiTestBase {

    private static final double HEAP_PERCENT = 42.5;

    private final List<HttpServer> webNodes = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final AtomicBoolean trafficRunning = new AtomicBoolean();
    private final java.util.concurrent.atomic.AtomicInteger trafficErrors = new java.util.concurrent.atomic.AtomicInteger();
    private Thread traffic;

    @BeforeEach
    void startShopCluster() throws IOException {
        for (String name : new String[] {"a", "b"}) {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/", exchange -> {
                byte[] body = ("node " + name).getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            server.start();
            webNodes.add(server);
        }
        ApiClient.Response created = api.post("/api/clusters", """
                {"name": "shop", "mode": "http", "listen": "127.0.0.1:0", "policy": "round-robin",
                 "nodes": [{"name": "a", "address": "127.0.0.1:%d"}, {"name": "b", "address": "127.0.0.1:%d"}]}
                """.formatted(webNodes.get(0).getAddress().getPort(), webNodes.get(1).getAddress().getPort()));
        assertEquals(201, created.status(), created.body());
    }

    @AfterEach
    void stopShopCluster() throws InterruptedException {
        stopTraffic();
        webNodes.forEach(s -> s.stop(0));
    }

    /** Requests through the cluster on a background thread, and agent samples for node a, until stopped. */
    private void startTraffic() {
        InetSocketAddress listener = control.boundAddress("shop");
        NodeState a = control.cluster("shop").node("a");
        trafficRunning.set(true);
        traffic = new Thread(() -> {
            while (trafficRunning.get()) {
                a.updateAgentSample(new AgentSample(System.currentTimeMillis(), AgentSample.Source.POLL,
                        Map.of("JVM_HEAP_USED%", HEAP_PERCENT, "OS_CPU_USED%", 12.0)));
                try {
                    HttpResponse<String> r = http.send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + listener.getPort() + "/x")).timeout(Duration.ofSeconds(3))
                            .build(), HttpResponse.BodyHandlers.ofString());
                    assertEquals(200, r.statusCode());
                } catch (IOException e) {
                    // A lost request only means less traffic; what is measured is what got through.
                    trafficErrors.incrementAndGet();
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "traffic");
        traffic.start();
    }

    private void stopTraffic() throws InterruptedException {
        trafficRunning.set(false);
        if (traffic != null) {
            traffic.join(10_000);
        }
    }

    /** Rows of a CSV series that have an average value. */
    private List<double[]> knownRows(String path) {
        ApiClient.Response csv = api.get(path);
        assertEquals(200, csv.status(), csv.body());
        assertTrue(csv.header("Content-Type").startsWith("text/csv"), csv.header("Content-Type"));
        String[] lines = csv.body().split("\n");
        assertEquals("timestamp,average,max", lines[0]);
        List<double[]> rows = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            String[] fields = lines[i].split(",", -1);
            assertEquals(3, fields.length, lines[i]);
            Instant.parse(fields[0]);
            if (!fields[1].isEmpty()) {
                rows.add(new double[] {Double.parseDouble(fields[1]), Double.parseDouble(fields[2])});
            }
        }
        return rows;
    }

    private BufferedImage png(String path) throws Exception {
        HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + plane.port() + path))
                .header("Authorization", "Bearer " + TOKEN).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode(), () -> new String(r.body(), StandardCharsets.UTF_8));
        assertEquals("image/png", r.headers().firstValue("Content-Type").orElse(""));
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(r.body()));
        assertNotNull(image, "not a PNG: " + path);
        return image;
    }

    /** Pixels of the AVERAGE line's colour inside the plot area (the canvas-coloured rectangle). */
    static int averageLinePixels(BufferedImage image) {
        int canvas = SeriesGraph.CANVAS.getRGB() & 0xffffff;
        int line = SeriesGraph.AVERAGE_COLOR.getRGB() & 0xffffff;
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
        for (int y = top; y <= bottom; y++) {
            for (int x = left; x <= right; x++) {
                if ((image.getRGB(x, y) & 0xffffff) == line) {
                    count++;
                }
            }
        }
        return count;
    }

    @Test
    void graphsAndSeriesShowTheTrafficThatFlowed() throws Exception {
        startTraffic();
        Await.until(() -> knownRows("/api/clusters/shop/series/TD_AVE_THROUGHPUT.csv?window=10m").stream()
                .filter(r -> r[0] > 0).count() >= 3, "three recorded seconds with throughput");
        Await.until(() -> knownRows("/api/clusters/shop/nodes/a/series/JVM_HEAP_USED%25.csv?window=10m").size() >= 3,
                "three recorded seconds of node a's heap");
        stopTraffic();

        assertTrue(averageLinePixels(png("/api/clusters/shop/graphs/TD_AVE_THROUGHPUT.png?window=10m")) > 0);
        assertTrue(averageLinePixels(png("/api/clusters/shop/nodes/a/graphs/TD_AVE_THROUGHPUT.png?window=10m")) > 0);
        assertTrue(averageLinePixels(png("/api/clusters/shop/nodes/a/graphs/JVM_HEAP_USED%25.png?window=10m")) > 0);
        // Node b has no agent: its heap graph is drawn, but with nothing on it.
        assertEquals(0, averageLinePixels(png("/api/clusters/shop/nodes/b/graphs/JVM_HEAP_USED%25.png?window=10m")));
        for (String window : new String[] {"1h", "24h", "30d"}) {
            png("/api/clusters/shop/graphs/TD_AVE_RSPS_TIME.png?window=" + window);
        }

        for (double[] row : knownRows("/api/clusters/shop/nodes/a/series/JVM_HEAP_USED%25.csv?window=10m")) {
            assertEquals(HEAP_PERCENT, row[0], 1e-9);
            assertEquals(HEAP_PERCENT, row[1], 1e-9);
        }
        assertTrue(knownRows("/api/clusters/shop/nodes/a/series/TAP_RQST_LASTTIME.csv?window=1h").stream()
                .anyMatch(r -> r[0] > 0), "PT of the last second recorded as TAP_RQST_LASTTIME");
        assertTrue(knownRows("/api/clusters/shop/nodes/b/series/OS_CPU_USED%25.csv").isEmpty());
        assertTrue(Files.exists(dataDir().resolve("rrd/shop/cluster.rrd")));
        assertTrue(Files.exists(dataDir().resolve("rrd/shop/nodes/a.rrd")));
    }

    @Test
    void listingsGroupTheMetricsForTheMetricsPage() {
        JsonNode cluster = api.get("/api/clusters/shop/graphs").json();
        assertEquals(List.of("dispatcher"), fieldNames(cluster.path("groups")));
        assertEquals(15, cluster.path("groups").path("dispatcher").size(), "Table 2, the queue and retries");
        JsonNode first = cluster.path("groups").path("dispatcher").get(0);
        assertEquals("TD_AVE_CONNS_ACT", first.path("metric").asText());
        assertEquals("/api/clusters/shop/graphs/TD_AVE_CONNS_ACT.png", first.path("png").asText());
        assertEquals("/api/clusters/shop/series/TD_AVE_CONNS_ACT.csv", first.path("csv").asText());
        assertEquals("[\"10m\",\"1h\",\"24h\",\"30d\"]", cluster.path("windows").toString());

        JsonNode node = api.get("/api/clusters/shop/nodes/a/graphs").json();
        assertEquals("a", node.path("node").asText());
        assertEquals(List.of("dispatcher", "os", "os-network", "jvm", "appserver", "policy"),
                fieldNames(node.path("groups")));
        boolean heapListed = false;
        for (JsonNode m : node.path("groups").path("jvm")) {
            if (m.path("metric").asText().equals("JVM_HEAP_USED%")) {
                heapListed = true;
                assertEquals("/api/clusters/shop/nodes/a/graphs/JVM_HEAP_USED%25.png", m.path("png").asText());
            }
        }
        assertTrue(heapListed);
        assertEquals("NET_TCP_ACT_OPENS", node.path("groups").path("os-network").get(0).path("metric").asText());
        assertEquals("NODE_NMA_RSPS_TIME", node.path("groups").path("policy").get(0).path("metric").asText());
    }

    @Test
    void unknownMetricsWindowsAndClustersAreClearErrors() {
        ApiClient.Response unknown = api.get("/api/clusters/shop/graphs/NO_SUCH_METRIC.png");
        assertEquals(404, unknown.status());
        assertTrue(unknown.json().path("error").asText().contains("NO_SUCH_METRIC"), unknown.body());
        assertTrue(unknown.json().path("details").toString().contains("\"TD_AVE_THROUGHPUT\""), unknown.body());
        assertTrue(!unknown.json().path("details").toString().contains("JVM_HEAP_USED%"), "cluster lists its own metrics");
        ApiClient.Response nodeUnknown = api.get("/api/clusters/shop/nodes/a/series/NOPE.csv");
        assertEquals(404, nodeUnknown.status());
        assertTrue(nodeUnknown.json().path("details").toString().contains("\"JVM_HEAP_USED%\""), nodeUnknown.body());

        ApiClient.Response badWindow = api.get("/api/clusters/shop/graphs/TD_AVE_THROUGHPUT.png?window=2h");
        assertEquals(400, badWindow.status());
        assertTrue(badWindow.json().path("error").asText().contains("10m"), badWindow.body());

        assertEquals(404, api.get("/api/clusters/shop/graphs/TD_AVE_THROUGHPUT.gif").status());
        assertEquals(404, api.get("/api/clusters/nope/graphs").status());
        assertEquals(404, api.get("/api/clusters/shop/nodes/zz/graphs/TD_AVE_THROUGHPUT.png").status());
        assertEquals(401, api.send("GET", "/api/clusters/shop/graphs/TD_AVE_THROUGHPUT.png", null, null).status());
        assertEquals(401, api.send("GET", "/api/clusters/shop/series/TD_AVE_THROUGHPUT.csv", null, "Bearer x").status());
    }

    @Test
    void aDeletedClustersHistoryIsKeptAndStaysReadable() {
        assertEquals(200, api.get("/api/clusters/shop/graphs/TD_AVE_THROUGHPUT.png").status());
        // Only the writer makes stores (within the disk budget), on its first tick with the cluster.
        Await.until(() -> Files.exists(dataDir().resolve("rrd/shop/cluster.rrd")), "the writer made the store");
        assertEquals(204, api.delete("/api/clusters/shop").status());
        assertTrue(Files.exists(dataDir().resolve("rrd/shop/cluster.rrd")));
        assertEquals(200, api.get("/api/clusters/shop/series/TD_AVE_THROUGHPUT.csv").status());
        assertEquals(404, api.get("/api/clusters/shop/nodes/zz/graphs").status(), "no such node and no store of it");
    }

    private static List<String> fieldNames(JsonNode object) {
        List<String> out = new ArrayList<>();
        object.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
