package io.loadwise.console.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Stores sized to what a node reports, and the disk budget and free-space reserve, with real rrd4j files
 * in a temporary directory; only the free-space reading is played ({@link Rows.FakeDisk}).
 */
class MetricStoresTest {

    /** Now: the retention compares the clock with real file times. */
    private static final long START = System.currentTimeMillis() / 1000;
    private static final String HEAP = "JVM_HEAP_USED%";
    private static final String CPU = "OS_CPU_USED%";
    private static final String THREADS = "JVM_THREADS";
    private static final String JDBC = "AMX_JDBC_ACTC";
    private static final long DAY = 86_400_000L;

    @TempDir
    Path dir;

    private final AtomicLong clock = new AtomicLong(START * 1000);
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    private final Logger storesLog = (Logger) LoggerFactory.getLogger(MetricStores.class);
    private final List<MetricStores> opened = new ArrayList<>();

    @BeforeEach
    void captureLog() {
        logged.start();
        storesLog.addAppender(logged);
        storesLog.setLevel(Level.INFO);
    }

    @AfterEach
    void closeStores() {
        storesLog.detachAppender(logged);
        storesLog.setLevel(null);
        opened.forEach(MetricStores::close);
    }

    private MetricStores stores(long budgetBytes, DiskSpace disk) {
        MetricStores stores = new MetricStores(dir, new StoreLimits(budgetBytes, DAY), disk, clock::get);
        opened.add(stores);
        return stores;
    }

    private List<String> warnings() {
        return logged.list.stream().filter(e -> e.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage)
                .toList();
    }

    private List<String> infos() {
        return logged.list.stream().filter(e -> e.getLevel() == Level.INFO).map(ILoggingEvent::getFormattedMessage)
                .toList();
    }

    @Test
    void eachStoreHoldsWhatItsClusterOrNodeReportsAndIsTheSizeTheLayoutSays() throws Exception {
        MetricStores stores = stores(1L << 30, Rows.FakeDisk.roomy());
        StoreKey cluster = StoreKey.cluster("web");
        StoreKey quiet = StoreKey.node("web", "no-agent");
        StoreKey reporting = StoreKey.node("web", "three-metrics");
        StoreKey everything = StoreKey.node("web", "every-metric");
        assertEquals(MetricStores.Outcome.WRITTEN, stores.record(cluster, START, Rows.full(SeriesCatalog.CLUSTER, START)));
        assertEquals(MetricStores.Outcome.WRITTEN, stores.record(quiet, START, Rows.node(START)));
        assertEquals(MetricStores.Outcome.WRITTEN, stores.record(reporting, START, Rows.node(START, HEAP, CPU, THREADS)));
        assertEquals(MetricStores.Outcome.WRITTEN, stores.record(everything, START, Rows.full(SeriesCatalog.NODE, START)));

        int always = SeriesCatalog.NODE.always().size();
        assertEquals(14, always, "Table 2, TAP_NODE_SEL and TAP_RQST_LASTTIME");
        assertHolds(stores, cluster, 15); // Table 2, the queue and retries
        assertHolds(stores, quiet, always);
        assertHolds(stores, reporting, always + 3);
        assertHolds(stores, everything, SeriesCatalog.NODE.size());
        MetricStore three = stores.existing(reporting);
        assertTrue(three.holds(SeriesCatalog.NODE.find(HEAP)));
        assertFalse(three.holds(SeriesCatalog.NODE.find(JDBC)), "a metric the node does not report takes no room");

        long firstLayout = StoreLayout.definition(dir.resolve("x"), SeriesCatalog.NODE.series(),
                StoreLayout.FIRST_ARCHIVES, START).getEstimatedSize();
        System.out.printf("metric store sizes: cluster (15 series) %d bytes; node without agent (%d) %d; node with 3 "
                        + "agent metrics (%d) %d; node with every metric (%d) %d; per series %d; a node with 45 agent "
                        + "metrics and 2 agent statistics (61) %d; first layout, every metric: %d%n",
                Files.size(file(cluster)), always, Files.size(file(quiet)), always + 3, Files.size(file(reporting)),
                SeriesCatalog.NODE.size(), Files.size(file(everything)), StoreLayout.bytesFor(2) - StoreLayout.bytesFor(1),
                StoreLayout.bytesFor(always + 47), firstLayout);
        assertTrue(Files.size(file(everything)) * 4 < firstLayout, "the day and month archives shrank");
        assertEquals(4, stores.usage().storeCount());
        assertEquals(Files.size(file(cluster)) + Files.size(file(quiet)) + Files.size(file(reporting))
                + Files.size(file(everything)), stores.usage().usedBytes());
    }

    private void assertHolds(MetricStores stores, StoreKey key, int series) throws Exception {
        MetricStore store = stores.existing(key);
        assertEquals(series, store.held().size(), key.toString());
        assertEquals(StoreLayout.bytesFor(series), Files.size(file(key)), key.toString());
    }

    private Path file(StoreKey key) {
        return key.file(dir);
    }

    @Test
    void aMetricReportedLaterGrowsTheStoreAndKeepsItsHistory() throws Exception {
        MetricStores stores = stores(1L << 30, Rows.FakeDisk.roomy());
        StoreKey key = StoreKey.node("web", "n1");
        for (long t = START; t < START + 10; t++) {
            stores.record(key, t, Rows.node(t, HEAP));
        }
        long before = stores.usage().usedBytes();
        for (long t = START + 10; t < START + 20; t++) {
            assertEquals(MetricStores.Outcome.WRITTEN, stores.record(key, t, Rows.node(t, HEAP, JDBC)));
        }
        MetricStore store = stores.existing(key);
        int always = SeriesCatalog.NODE.always().size();
        assertEquals(always + 2, store.held().size());
        assertEquals(StoreLayout.bytesFor(always + 2), Files.size(file(key)));
        assertEquals(before + StoreLayout.bytesFor(always + 2) - StoreLayout.bytesFor(always + 1),
                stores.usage().usedBytes());

        double[] heap = MetricStoreTest.oneSecondValues(store, SeriesCatalog.NODE.find(HEAP), START + 1, START + 19);
        double[] jdbc = MetricStoreTest.oneSecondValues(store, SeriesCatalog.NODE.find(JDBC), START + 1, START + 19);
        for (int i = 0; i < heap.length; i++) {
            long t = START + 1 + i;
            assertEquals((t % 1000) + 0.5, heap[i], 1e-9, "heap at " + t + ", before and after the store grew");
            if (t < START + 10) {
                assertTrue(Double.isNaN(jdbc[i]), "JDBC unknown before it was reported, at " + t);
            } else {
                assertEquals((t % 1000) + 0.5, jdbc[i], 1e-9, "JDBC at " + t);
            }
        }
        assertEquals(List.of("n1.rrd", "n1.rrd.journal"), MetricStoreTest.fileNames(file(key).getParent()));
        assertTrue(warnings().isEmpty(), warnings().toString());
    }

    @Test
    void theBudgetRefusesTheStoreThatWouldExceedItLogsItOnceAndTriesAgainWhenThereIsRoom() throws Exception {
        long nodeStore = StoreLayout.bytesFor(SeriesCatalog.NODE.always().size());
        MetricStores stores = stores(3 * nodeStore + nodeStore / 2, Rows.FakeDisk.roomy());
        for (int n = 1; n <= 3; n++) {
            assertEquals(MetricStores.Outcome.WRITTEN, stores.record(StoreKey.node("web", "n" + n), START, Rows.node(START)));
        }
        StoreKey fourth = StoreKey.node("web", "n4");
        for (long t = START; t < START + 120; t++) {
            clock.set(t * 1000);
            assertEquals(MetricStores.Outcome.REFUSED, stores.record(fourth, t, Rows.node(t)), "second " + t);
        }
        assertFalse(Files.exists(file(fourth)));
        List<String> warnings = warnings();
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("node web/n4") && warnings.get(0).contains("admin.metricsDiskBudgetMb")
                && warnings.get(0).contains("served as usual"), warnings.get(0));

        StoreUsage usage = stores.usage();
        assertEquals(3, usage.storeCount());
        assertEquals(3 * nodeStore, usage.usedBytes());
        assertEquals(1, usage.refused().size());
        assertEquals("n4", usage.refused().get(0).node());
        assertEquals("store", usage.refused().get(0).what());
        assertEquals(START * 1000, usage.refused().get(0).sinceMillis());
        assertTrue(usage.warning().startsWith("1 cluster or node is not fully recorded; first: web/n4: the metric stores"),
                usage.warning());

        // n1 is removed and its retention has passed: its room goes to n4 on n4's next try.
        clock.addAndGet(2 * DAY);
        stores.sweep(Set.of(StoreKey.node("web", "n2"), StoreKey.node("web", "n3"), fourth));
        assertFalse(Files.exists(file(StoreKey.node("web", "n1"))));
        long later = clock.get() / 1000;
        assertEquals(MetricStores.Outcome.WRITTEN, stores.record(fourth, later, Rows.node(later)));
        assertTrue(stores.usage().refused().isEmpty());
        assertNull(stores.usage().warning());
        assertEquals(1, warnings().size(), "no more warnings");
        assertTrue(infos().contains("metric store of node web/n4: what was refused is recorded now"), infos().toString());
    }

    @Test
    void aStoreThatCannotGrowKeepsRecordingTheSeriesItHolds() throws Exception {
        int always = SeriesCatalog.NODE.always().size();
        MetricStores stores = stores(StoreLayout.bytesFor(always) + 1000, Rows.FakeDisk.roomy());
        StoreKey key = StoreKey.node("web", "n1");
        // The agent answers from the sixth second on: the store was made without its metrics.
        for (long t = START; t < START + 30; t++) {
            clock.set(t * 1000);
            double[] row = t < START + 5 ? Rows.node(t) : Rows.node(t, HEAP);
            assertEquals(MetricStores.Outcome.WRITTEN, stores.record(key, t, row), "second " + t);
        }
        MetricStore store = stores.existing(key);
        assertEquals(always, store.held().size());
        assertEquals(START + 29, store.lastUpdateSeconds());
        List<String> warnings = warnings();
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("cannot add 1 more series [JVM_HEAP_USED%]")
                && warnings.get(0).contains("the series it holds are still recorded"), warnings.get(0));
        assertEquals("1 more series [JVM_HEAP_USED%]", stores.usage().refused().get(0).what());
    }

    @Test
    void aNearlyFullDiskRefusesNewStoresAndKeepsTheReserveFree() throws Exception {
        long size = StoreLayout.bytesFor(SeriesCatalog.NODE.always().size());
        long total = 100L << 30;
        long reserve = StoreAdmission.reserveBytes(total);
        assertEquals(1L << 30, reserve, "at most 1 GiB on a large disk");
        Rows.FakeDisk disk = new Rows.FakeDisk(reserve + size - 1, total);
        MetricStores stores = stores(1L << 40, disk);
        StoreKey key = StoreKey.node("web", "n1");
        assertEquals(MetricStores.Outcome.REFUSED, stores.record(key, START, Rows.node(START)));
        assertFalse(Files.exists(file(key)));
        assertTrue(warnings().get(0).contains("1024.0 MB must stay free"), warnings().toString());
        assertEquals(reserve, stores.usage().reserveBytes());
        assertEquals(reserve + size - 1, stores.usage().freeBytes());

        disk.usable.set(reserve + size);
        clock.addAndGet(Refusals.RETRY_MILLIS);
        assertEquals(MetricStores.Outcome.WRITTEN, stores.record(key, START + 60, Rows.node(START + 60)));
        assertEquals(1, warnings().size(), warnings().toString());
    }

    @Test
    void onASmallDiskTheReserveIsFivePercentAndAnUnreadableDiskRefuses() throws Exception {
        assertEquals((10L << 30) / 100 * 5, StoreAdmission.reserveBytes(10L << 30));
        Rows.FakeDisk disk = Rows.FakeDisk.roomy();
        disk.broken = true;
        MetricStores stores = stores(1L << 40, disk);
        assertEquals(MetricStores.Outcome.REFUSED, stores.record(StoreKey.cluster("web"), START,
                Rows.full(SeriesCatalog.CLUSTER, START)));
        assertTrue(warnings().get(0).contains("cannot read the free space") && warnings().get(0).contains("statfs failed"),
                warnings().toString());
        StoreUsage usage = stores.usage();
        assertEquals(-1, usage.freeBytes());
        assertNotNull(usage.warning());
    }

    @Test
    void nearlyAllOfTheBudgetUsedIsAWarningToo() throws Exception {
        long size = StoreLayout.bytesFor(SeriesCatalog.CLUSTER.size());
        MetricStores stores = stores(size + size / 20, Rows.FakeDisk.roomy());
        assertEquals(MetricStores.Outcome.WRITTEN, stores.record(StoreKey.cluster("web"), START,
                Rows.full(SeriesCatalog.CLUSTER, START)));
        assertEquals("the metric stores use 95 % of their budget (admin.metricsDiskBudgetMb)", stores.usage().warning());
    }

    @Test
    void aFailingWriteIsLikeARefusalLoggedOnceAndTriedAgainAMinuteLater() throws Exception {
        MetricStores stores = stores(1L << 30, Rows.FakeDisk.roomy());
        StoreKey key = StoreKey.node("web", "n1");
        Path file = file(key);
        // Something in the way of the temporary file every creation and rewrite writes first.
        Path obstacle = StoreRebuild.partialOf(file);
        Files.createDirectories(obstacle);
        Files.writeString(obstacle.resolve("in-the-way"), "x");
        for (long t = START; t < START + 5; t++) {
            clock.set(t * 1000);
            assertEquals(MetricStores.Outcome.REFUSED, stores.record(key, t, Rows.node(t)));
        }
        assertEquals(1, warnings().size(), warnings().toString());
        assertTrue(warnings().get(0).contains("refused: creating it failed"), warnings().get(0));

        Files.delete(obstacle.resolve("in-the-way"));
        Files.delete(obstacle);
        clock.set((START + 60) * 1000);
        assertEquals(MetricStores.Outcome.WRITTEN, stores.record(key, START + 60, Rows.node(START + 60)));

        Files.createDirectories(obstacle);
        Files.writeString(obstacle.resolve("in-the-way"), "x");
        for (long t = START + 61; t < START + 70; t++) {
            clock.set(t * 1000);
            assertEquals(MetricStores.Outcome.WRITTEN, stores.record(key, t, Rows.node(t, HEAP)), "second " + t);
        }
        assertEquals(2, warnings().size(), warnings().toString());
        assertTrue(warnings().get(1).contains("cannot add 1 more series [JVM_HEAP_USED%]: rewriting it failed"),
                warnings().get(1));
        assertEquals(START + 69, stores.existing(key).lastUpdateSeconds(), "the series it holds are recorded");
        assertFalse(stores.existing(key).holds(SeriesCatalog.NODE.find(HEAP)));
    }
}
