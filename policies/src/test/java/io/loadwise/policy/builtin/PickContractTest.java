package io.loadwise.policy.builtin;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** The {@link Picker} contract, checked for every registered policy over a cluster with healthy metrics. */
class PickContractTest {

    static final java.util.List<String> IDS = BuiltinRegistryTest.IDS;

    /** Five nodes with distinct, unsaturated metrics and response times, so every policy has a preference. */
    static TestCluster cluster(String id) {
        TestCluster cluster = TestCluster.weighted(id, 3, 1, 2, 1, 4);
        for (TestNode node : cluster.nodes) {
            int i = node.index();
            node.metrics("OS_CPU_USED%", 10 + 7 * i, "OS_MEM_USED%", 30 + 3 * i, "OS_CPU_IOWAIT%", 2 + i,
                    "AMX_CONNS_Q_USED%", 5 + i, "AMX_CONNS_Q_THRBSY%", 20 + 2 * i, "AMX_JDBC_ACTC%", 10,
                    "JVM_HEAP_USED%", 40 + i, "AMX_SESSIONS_ACT", 100 - 9 * i)
                    .responseTime(5 + 3 * i)
                    .active(i % 3);
        }
        return cluster;
    }

    @ParameterizedTest
    @FieldSource("IDS")
    void neverReturnsAnUnusableNodeWhileNodesGoUpAndDown(String id) {
        TestCluster cluster = cluster(id);
        Picker picker = cluster.picker();
        Random flips = new Random(3);
        for (int round = 0; round < 500; round++) {
            TestNode flipped = cluster.nodes[flips.nextInt(cluster.nodes.length)];
            if (flips.nextBoolean()) {
                flipped.healthy(!flipped.healthy());
            } else {
                flipped.enabled(!flipped.enabled());
            }
            boolean anyUsable = false;
            for (TestNode node : cluster.nodes) {
                anyUsable |= node.usable();
            }
            NodeView picked = picker.pick(null);
            if (anyUsable) {
                assertNotNull(picked, id + " round " + round);
                assertTrue(picked.usable(), id + " picked unusable " + picked);
            } else {
                assertNull(picked, id + " round " + round);
            }
        }
    }

    @ParameterizedTest
    @FieldSource("IDS")
    void avoidIsNeverReturnedWhileAnotherNodeIsUsable(String id) {
        TestCluster cluster = cluster(id);
        Picker picker = cluster.picker();
        for (TestNode avoid : cluster.nodes) {
            for (int i = 0; i < 20; i++) {
                NodeView picked = picker.pick(avoid);
                assertNotNull(picked, id);
                assertTrue(picked != avoid, id + " returned the avoided node " + avoid);
            }
        }
    }

    @ParameterizedTest
    @FieldSource("IDS")
    void avoidIsReturnedWhenItIsTheOnlyUsableNode(String id) {
        TestCluster cluster = cluster(id);
        for (TestNode node : cluster.nodes) {
            node.healthy(node.index() == 2);
        }
        Picker picker = cluster.picker();
        assertSame(cluster.node('C'), picker.pick(cluster.node('C')), id);
        assertSame(cluster.node('C'), picker.pick(null), id);
    }

    @ParameterizedTest
    @FieldSource("IDS")
    void avoidMatchesTheSameNodeFromAnOlderSnapshot(String id) {
        TestCluster cluster = cluster(id);
        TestNode staleB = new TestNode(1, "B", 1);
        cluster.node('A').healthy(false);
        cluster.node('C').healthy(false);
        cluster.node('D').healthy(false);
        cluster.node('E').healthy(false);
        Picker picker = cluster.picker();
        assertSame(cluster.node('B'), picker.pick(staleB), id + ": last resort is the current snapshot's node");
        cluster.node('E').healthy(true);
        assertSame(cluster.node('E'), picker.pick(staleB), id);
    }

    @ParameterizedTest
    @FieldSource("IDS")
    void singleNodeClusterWorks(String id) {
        TestCluster cluster = TestCluster.of(id, 1);
        Picker picker = cluster.picker();
        assertSame(cluster.node('A'), picker.pick(null), id);
        assertSame(cluster.node('A'), picker.pick(cluster.node('A')), id);
        cluster.node('A').healthy(false);
        assertNull(picker.pick(null), id);
    }
}
