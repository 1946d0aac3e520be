package io.loadwise.policy.builtin;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Guards the allocation-free pick path against regressions (an iterator, a boxed key, a lambda).
 * JMH's {@code -prof gc} gives the precise figure; this counts the bytes the test thread allocates
 * over many picks, which is 0 for allocation-free code whether interpreted or compiled.
 */
class PickAllocationTest {

    private static final int PICKS = 20_000;

    @ParameterizedTest
    @FieldSource("io.loadwise.policy.builtin.BuiltinRegistryTest#IDS")
    void picksDoNotAllocate(String id) {
        assertPicksDoNotAllocate(id, PickContractTest.cluster(id));
    }

    /** Nodes without agent samples take other paths (the unknown share, assumed loads). */
    @ParameterizedTest
    @FieldSource("io.loadwise.policy.builtin.BuiltinRegistryTest#IDS")
    void picksDoNotAllocateWhenSomeNodesAreUnknown(String id) {
        TestCluster cluster = PickContractTest.cluster(id);
        cluster.node('D').sample(null);
        cluster.node('E').sample(null);
        assertPicksDoNotAllocate(id, cluster);
    }

    private static void assertPicksDoNotAllocate(String id, TestCluster cluster) {
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        assumeTrue(mx instanceof com.sun.management.ThreadMXBean, "needs HotSpot's per-thread allocation counter");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) mx;
        cluster.node('B').healthy(false);
        cluster.node('A').active(0);
        cluster.node('D').active(0); // a tie for the live-counter policies
        Picker picker = cluster.picker();
        NodeView avoid = cluster.node('C');
        for (int i = 0; i < PICKS; i++) {
            picker.pick(i % 4 == 0 ? avoid : null);
        }
        long thread = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(thread);
        for (int i = 0; i < PICKS; i++) {
            picker.pick(i % 4 == 0 ? avoid : null);
        }
        long allocated = threads.getThreadAllocatedBytes(thread) - before;
        // A single stray object would be >= 16 bytes per pick, i.e. hundreds of kB here.
        assertTrue(allocated < 4096, id + " allocated " + allocated + " bytes in " + PICKS + " picks");
    }
}
