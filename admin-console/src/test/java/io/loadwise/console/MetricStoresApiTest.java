package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadwise.console.store.DiskSpace;
import io.loadwise.console.store.MetricStore;
import io.loadwise.console.store.MetricStores;
import io.loadwise.console.store.MetricsRecorder;
import io.loadwise.console.store.Series;
import io.loadwise.console.store.SeriesCatalog;
import io.loadwise.console.store.StoreKey;
import io.loadwise.console.store.StoreLimits;
import io.loadwise.console.testing.ApiClient;
import io.loadwise.console.testing.Await;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.runtime.Dispatcher;
import io.loadwise.dispatcher.runtime.ModeListenerFactory;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.testsupport.TestFirstUsablePolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rrd4j.ConsolFun;
import org.rrd4j.core.FetchData;
import org.slf4j.LoggerFactory;

/**
 * The disk budget and the cleanup against the real dispatcher: {@code GET /api/metrics/stores} warns about
 * the nodes the budget refused while the proxy serves them as before, and the stores of a deleted cluster
 * go after the retention period unless it comes back.
 */
class MetricStoresApiTest extends ApiTestBase {

    private static final long HOUR = 3_600_000L;

    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    private final Logger storesLog = (Logger) LoggerFactory.getLogger(MetricStores.class);

    @BeforeEach
    void captureLog() {
        logged.start();
        storesLog.addAppender(logged);
    }

    @AfterEach
    void releaseLog() {
        storesLog.detachAppender(logged);
    }

    /**
     * Restarts the dispatcher from the config file with a budget of 2 MB (a cluster store of 15 series fits, a
     * node store of 14 more does not) and a fresh data directory.
     */
    private ApiClient restartWithTwoMegabyteBudget() throws Exception {
        ObjectNode config = (ObjectNode) configOnDisk();
        ObjectNode admin = (ObjectNode) config.path("admin");
        admin.put("metricsDiskBudgetMb", 2);
        admin.put("dataDir", dir.resolve("small").toString().replace('\\', '/'));
        Files.writeString(configFile, JSON.writeValueAsString(config));
        control.close();
        control = new Dispatcher(ConfigLoader.load(configFile), new ConfigStore(configFile), PolicyRegistry.load(),
                transport, new ModeListenerFactory());
        control.start(TOKEN, true);
        return new ApiClient(control.controlPlane().port(), TOKEN);
    }

    private static long knownRows(ApiClient client, String path) {
        ApiClient.Response csv = client.get(path);
        assertEquals(200, csv.status(), csv.body());
        return csv.body().lines().skip(1).filter(line -> !line.endsWith(",,")).count();
    }

    @Test
    void pastTheBudgetNodesAreRefusedOnceTheApiWarnsAndTheProxyServesThemAsBefore() throws Exception {
        ApiClient small = restartWithTwoMegabyteBudget();
        Await.until(() -> small.get("/api/metrics/stores").json().path("refused").size() == 2, "both nodes refused");
        long recordedBefore = knownRows(small, "/api/clusters/web/series/TD_AVE_CONNS_ACT.csv?window=10m");
        Await.until(() -> knownRows(small, "/api/clusters/web/series/TD_AVE_CONNS_ACT.csv?window=10m")
                >= recordedBefore + 3, "three more recorded seconds of the cluster");

        JsonNode usage = small.get("/api/metrics/stores").json();
        assertEquals(2 * 1024 * 1024, usage.path("budgetBytes").asLong());
        assertEquals(1, usage.path("storeCount").asInt(), "the cluster's store fits, its nodes' do not");
        assertTrue(usage.path("usedBytes").asLong() <= 2 * 1024 * 1024, usage.toString());
        assertTrue(usage.path("freeBytes").asLong() > 0, usage.toString());
        assertEquals(24.0, usage.path("retentionHours").asDouble());
        assertTrue(usage.path("warning").asText().startsWith("2 clusters or nodes are not fully recorded; first: web/n1: "
                + "the metric stores use"), usage.toString());
        JsonNode first = usage.path("refused").get(0);
        assertEquals("web", first.path("cluster").asText());
        assertEquals("n1", first.path("node").asText());
        assertEquals("store", first.path("refused").asText());
        assertTrue(first.path("reason").asText().contains("(admin.metricsDiskBudgetMb)"), first.toString());
        assertEquals("n2", usage.path("refused").get(1).path("node").asText());

        List<String> warnings = logged.list.stream().filter(e -> e.getLevel() == Level.WARN)
                .map(ILoggingEvent::getFormattedMessage).toList();
        assertEquals(2, warnings.size(), "one line per refused node, not one per sample: " + warnings);
        assertTrue(warnings.stream().anyMatch(w -> w.startsWith("metric store of node web/n1 refused: ")), warnings.toString());

        assertEquals("still served", roundTrip(control.boundAddress("web"), "still served"));
        assertFalse(Files.exists(dir.resolve("small/rrd/web/nodes/n1.rrd")));
        assertEquals(0, knownRows(small, "/api/clusters/web/nodes/n1/series/TD_AVE_CONNS_ACT.csv?window=10m"));
        assertEquals(200, small.get("/api/clusters/web/nodes/n1/graphs/TD_AVE_CONNS_ACT.png").status());
        assertEquals(401, small.send("GET", "/api/metrics/stores", null, null).status());
    }

    @Test
    void withinTheBudgetThereIsNoWarning() {
        Await.until(() -> api.get("/api/metrics/stores").json().path("storeCount").asInt() == 3, "three stores");
        JsonNode usage = api.get("/api/metrics/stores").json();
        assertTrue(usage.path("warning").isNull(), usage.toString());
        assertEquals(0, usage.path("refused").size());
        assertEquals(1024L * 1024 * 1024, usage.path("budgetBytes").asLong());
    }

    @Test
    void aDeletedClustersStoresGoAfterTheRetentionPeriodUnlessItComesBackWithinIt() throws Exception {
        Path root = dir.resolve("own-rrd");
        AtomicLong clock = new AtomicLong(System.currentTimeMillis());
        MetricStores stores = new MetricStores(root, new StoreLimits(1L << 30, HOUR), DiskSpace.of(root), clock::get);
        StoreKey n1 = StoreKey.node("web", "n1");
        Path n2File = root.resolve("web/nodes/n2.rrd");
        try (MetricsRecorder recorder = new MetricsRecorder(control, stores, clock::get)) {
            sampleMetrics();
            assertEquals(3, recorder.recordNow());
            long firstSecond = clock.get() / 1000;
            double connectionsThen = connectionsAt(stores.existing(n1), firstSecond);
            assertFalse(Double.isNaN(connectionsThen), "recorded");
            assertEquals(204, api.delete("/api/clusters/web").status());

            clock.addAndGet(HOUR / 2);
            recorder.recordNow();
            assertEquals(3, stores.usage().pendingRemoval().size());
            assertTrue(Files.exists(n2File));

            assertEquals(201, api.post("/api/clusters", """
                    {"name": "web", "mode": "tcp", "listen": "127.0.0.1:0", "policy": "%s",
                     "nodes": [{"name": "n1", "address": "%s"}]}""".formatted(TestFirstUsablePolicy.ID, node1.address()))
                    .status());
            clock.addAndGet(1000);
            assertEquals(2, recorder.recordNow(), "the cluster and n1 carry on in their stores");
            assertEquals(firstSecond + 1801, stores.existing(n1).lastUpdateSeconds());
            assertEquals(connectionsThen, connectionsAt(stores.existing(n1), firstSecond), "n1 lost nothing");

            clock.addAndGet(2 * HOUR);
            recorder.recordNow();
            assertFalse(Files.exists(n2File), "n2 did not come back");
            assertTrue(Files.exists(root.resolve("web/cluster.rrd")) && Files.exists(root.resolve("web/nodes/n1.rrd")));
            assertEquals(2, stores.usage().storeCount());
            assertEquals(List.of(), stores.usage().pendingRemoval());
        }
    }

    private static double connectionsAt(MetricStore store, long second) throws Exception {
        Series connections = SeriesCatalog.NODE.find("TD_AVE_CONNS_ACT");
        FetchData data = store.fetch(connections, ConsolFun.AVERAGE, second - 1, second, 1);
        for (int i = 0; i < data.getTimestamps().length; i++) {
            if (data.getTimestamps()[i] == second) {
                return data.getValues(0)[i];
            }
        }
        throw new AssertionError("no row for second " + second);
    }
}
