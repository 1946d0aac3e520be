package io.loadwise.console.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stores of removed clusters and nodes: kept for the retention period (and continued if the name
 * comes back), then deleted, also those found at start. Real files; the clock is moved, and file times
 * are set back where a test plays a store written long ago.
 */
class StoreSweepTest {

    private static final long HOUR = 3_600_000L;
    private static final long START = System.currentTimeMillis() / 1000;
    private static final String HEAP = "JVM_HEAP_USED%";

    @TempDir
    Path dir;

    private final AtomicLong clock = new AtomicLong(START * 1000);
    private MetricStores stores;

    private MetricStores open() {
        stores = new MetricStores(dir, new StoreLimits(1L << 30, 24 * HOUR), Rows.FakeDisk.roomy(), clock::get);
        return stores;
    }

    @AfterEach
    void close() {
        if (stores != null) {
            stores.close();
        }
    }

    private static final StoreKey CLUSTER = StoreKey.cluster("web");
    private static final StoreKey N1 = StoreKey.node("web", "n1");
    private static final StoreKey N2 = StoreKey.node("web", "n2");

    /** The last write of a store as the sweep reads it: the later of the file's and its journal's times. */
    private long lastWriteOf(StoreKey key) throws Exception {
        Path file = key.file(dir);
        Path journal = JournaledBackend.journalOf(file);
        long journalTime = Files.exists(journal) ? Files.getLastModifiedTime(journal).toMillis() : 0;
        return Math.max(Files.getLastModifiedTime(file).toMillis(), journalTime);
    }

    private void recordSeconds(StoreKey key, long from, long to) throws Exception {
        for (long t = from; t <= to; t++) {
            stores.record(key, t, key.isNode() ? Rows.node(t, HEAP) : Rows.full(SeriesCatalog.CLUSTER, t));
        }
    }

    @Test
    void aRemovedNodesStoreStaysForTheRetentionPeriodThenGoes() throws Exception {
        open();
        recordSeconds(CLUSTER, START, START + 5);
        recordSeconds(N1, START, START + 5);
        recordSeconds(N2, START, START + 5);
        Set<StoreKey> withoutN2 = Set.of(CLUSTER, N1);
        stores.sweep(withoutN2);
        assertTrue(Files.exists(N2.file(dir)));
        StoreUsage usage = stores.usage();
        assertEquals(3, usage.storeCount());
        assertEquals(1, usage.pendingRemoval().size());
        StoreUsage.PendingRemoval pending = usage.pendingRemoval().get(0);
        assertEquals("n2", pending.node());
        long lastWritten = lastWriteOf(N2);
        assertTrue(lastWritten >= Files.getLastModifiedTime(N2.file(dir)).toMillis());
        assertEquals(lastWritten + 24 * HOUR, pending.deleteAtMillis(), 0, "24 h after its last write");

        clock.set(lastWritten + 24 * HOUR - 60_000);
        stores.sweep(withoutN2);
        assertTrue(Files.exists(N2.file(dir)), "a minute before the end of the retention period");
        assertTrue(stores.existing(N2) != null, "its history is still readable");

        // The open store's journal may be touched again as the store syncs: the period runs from the last
        // write the sweep can see, which is what an operator's "last written" means.
        clock.set(lastWriteOf(N2) + 24 * HOUR);
        stores.sweep(withoutN2);
        assertFalse(Files.exists(N2.file(dir)));
        assertFalse(Files.exists(JournaledBackend.journalOf(N2.file(dir))));
        assertNull(stores.existing(N2));
        assertTrue(Files.exists(N1.file(dir)) && Files.exists(CLUSTER.file(dir)), "live stores stay");
        assertEquals(2, stores.usage().storeCount());
        assertEquals(List.of(), stores.usage().pendingRemoval());
        assertEquals(sizeOfAllFiles(), stores.usage().usedBytes());
    }

    @Test
    void aNodeRemovedAndAddedAgainWithinTheRetentionPeriodLosesNothing() throws Exception {
        open();
        recordSeconds(N2, START, START + 9);
        stores.sweep(Set.of(CLUSTER, N1));
        clock.addAndGet(23 * HOUR);
        stores.sweep(Set.of(CLUSTER, N1));
        assertTrue(Files.exists(N2.file(dir)), "23 h after its removal");

        // Back after half an hour, so the seconds from before are still in the 1-second archive.
        long back = START + 1800;
        clock.set(back * 1000);
        stores.sweep(Set.of(CLUSTER, N1, N2));
        recordSeconds(N2, back, back + 4);
        clock.addAndGet(48 * HOUR);
        stores.sweep(Set.of(CLUSTER, N1, N2));

        MetricStore store = stores.existing(N2);
        assertEquals(back + 4, store.lastUpdateSeconds());
        Series heap = SeriesCatalog.NODE.find(HEAP);
        double[] before = MetricStoreTest.oneSecondValues(store, heap, START + 1, START + 9);
        for (int i = 0; i < before.length; i++) {
            assertEquals(((START + 1 + i) % 1000) + 0.5, before[i], 1e-9, "second " + (START + 1 + i));
        }
        assertEquals(List.of("n2.rrd", "n2.rrd.journal"), MetricStoreTest.fileNames(N2.file(dir).getParent()));
    }

    @Test
    void atStartStoresOfClustersAndNodesGoneLongerThanTheRetentionAreDeletedAndLeftoversCleanedUp() throws Exception {
        long longAgo = START * 1000 - 25 * HOUR;
        long recently = START * 1000 - 2 * HOUR;
        // A previous run's files: every store closed, as after a clean stop.
        for (StoreKey key : List.of(CLUSTER, N1, N2, StoreKey.node("web", "quiet"), StoreKey.cluster("gone"),
                StoreKey.node("gone", "g1"))) {
            MetricStore.create(key.file(dir), key.catalog(), key.catalog().always(), START - 100_000).close();
        }
        age(N1.file(dir), longAgo);
        age(N2.file(dir), recently);
        age(StoreKey.node("web", "quiet").file(dir), longAgo);
        age(StoreKey.cluster("gone").file(dir), longAgo);
        age(StoreKey.node("gone", "g1").file(dir), longAgo);
        Path oldAside = dir.resolve("web/nodes/n9.rrd.corrupt-20260101T000000Z");
        Path newAside = dir.resolve("web/nodes/n8.rrd.corrupt-20261101T000000Z");
        Files.write(oldAside, new byte[100]);
        Files.write(newAside, new byte[100]);
        age(oldAside, longAgo);
        age(newAside, recently);
        Path partial = dir.resolve("web/nodes/n7.rrd.partial");
        Files.write(partial, new byte[10]);
        Path foreign = dir.resolve("README.txt");
        Files.writeString(foreign, "not ours");

        open();
        // web and its node "quiet" are configured (quiet is old: it was not written while the dispatcher was down).
        stores.sweep(Set.of(CLUSTER, StoreKey.node("web", "quiet")));

        assertEquals(List.of("README.txt", "web/cluster.rrd", "web/nodes/n2.rrd",
                "web/nodes/n8.rrd.corrupt-20261101T000000Z", "web/nodes/quiet.rrd"), files());
        assertFalse(Files.exists(dir.resolve("gone")), "the removed cluster's directory goes too");
        StoreUsage usage = stores.usage();
        assertEquals(3, usage.storeCount());
        assertEquals(sizeOfAllFiles(), usage.usedBytes());
        assertEquals("n2", usage.pendingRemoval().get(0).node());
        assertEquals(recently + 24 * HOUR, usage.pendingRemoval().get(0).deleteAtMillis());
    }

    private static void age(Path file, long millis) throws Exception {
        Files.setLastModifiedTime(file, FileTime.fromMillis(millis));
    }

    private List<String> files() throws Exception {
        try (Stream<Path> all = Files.walk(dir)) {
            return all.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString().replace('\\', '/')).sorted()
                    .toList();
        }
    }

    private long sizeOfAllFiles() throws Exception {
        try (Stream<Path> all = Files.walk(dir)) {
            long total = 0;
            for (Path p : all.filter(Files::isRegularFile).toList()) {
                total += Files.size(p);
            }
            return total;
        }
    }
}
