package io.loadwise.policy.builtin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.api.Test;

/** Many threads share one picker, as the dispatcher's event loops do. */
class ConcurrentPickTest {

    private static final int THREADS = 8;
    private static final int PICKS_PER_THREAD = 5_000;

    /** Runs {@code body} on THREADS threads released together; fails on the first error. */
    private static void onAllThreads(Runnable body) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            CountDownLatch start = new CountDownLatch(1);
            Future<?>[] futures = new Future<?>[THREADS];
            for (int t = 0; t < THREADS; t++) {
                futures[t] = pool.submit(() -> {
                    start.await();
                    body.run();
                    return null;
                });
            }
            start.countDown();
            for (Future<?> f : futures) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static long[] countPicks(Picker picker, int nodes) throws Exception {
        AtomicLongArray counts = new AtomicLongArray(nodes);
        onAllThreads(() -> {
            for (int i = 0; i < PICKS_PER_THREAD; i++) {
                counts.incrementAndGet(picker.pick(null).index());
            }
        });
        long[] result = new long[nodes];
        for (int i = 0; i < nodes; i++) {
            result[i] = counts.get(i);
        }
        return result;
    }

    @Test
    void staticWrrTotalsAreExactUnderContention() throws Exception {
        TestCluster cluster = TestCluster.weighted("static-wrr", 2, 2, 1);
        long total = (long) THREADS * PICKS_PER_THREAD;
        assertArrayEquals(new long[] {total * 2 / 5, total * 2 / 5, total / 5}, countPicks(cluster.picker(), 3));
    }

    @Test
    void roundRobinTotalsAreExactUnderContention() throws Exception {
        TestCluster cluster = TestCluster.of("round-robin", 4);
        long quarter = (long) THREADS * PICKS_PER_THREAD / 4;
        assertArrayEquals(new long[] {quarter, quarter, quarter, quarter}, countPicks(cluster.picker(), 4));
    }

    @ParameterizedTest
    @FieldSource("io.loadwise.policy.builtin.BuiltinRegistryTest#IDS")
    void concurrentPicksWithLiveCountersAlwaysYieldAUsableNode(String id) throws Exception {
        TestCluster cluster = PickContractTest.cluster(id);
        cluster.node('B').healthy(false);
        Picker picker = cluster.picker();
        AtomicReference<String> failure = new AtomicReference<>();
        onAllThreads(() -> {
            for (int i = 0; i < PICKS_PER_THREAD / 5; i++) {
                NodeView picked = picker.pick(null);
                if (picked == null || !picked.usable()) {
                    failure.compareAndSet(null, id + " picked " + picked);
                    return;
                }
                // Play the dispatcher: the connection opens, work happens, it closes.
                TestNode node = (TestNode) picked;
                node.connectionOpened();
                node.responseTime(1 + (i % 7));
                node.connectionClosed();
            }
        });
        assertEquals(null, failure.get());
        for (TestNode node : cluster.nodes) {
            assertEquals(node.index() % 3, node.activeConnections(), "every open was closed on " + node);
        }
        assertTrue(picker.pick(null).usable());
    }
}
