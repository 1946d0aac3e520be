package io.loadwise.policy.builtin;

import static io.loadwise.policy.builtin.TestCluster.counts;
import static io.loadwise.policy.builtin.TestCluster.sequence;
import static io.loadwise.policy.builtin.TestCluster.sequenceOpening;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.loadwise.policy.Picker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LeastConnectionsPolicyTest {

    @Test
    void picksTheNodeWithFewestActiveConnectionsReadLive() {
        TestCluster cluster = TestCluster.of("least-connections", 3);
        cluster.node('A').active(5);
        cluster.node('B').active(2);
        cluster.node('C').active(7);
        Picker picker = cluster.picker();
        assertEquals("BBB", sequence(picker, 3));
        cluster.node('C').active(1);
        assertSame(cluster.node('C'), picker.pick(null), "counters are read at pick time, not build time");
    }

    @Test
    void allTiedRotatesInsteadOfFavouringTheFirstNode() {
        TestCluster cluster = TestCluster.of("least-connections", 3);
        assertEquals("ABCABC", sequence(cluster.picker(), 6));
    }

    @Test
    void partialTieRotatesAmongTheTiedNodes() {
        TestCluster cluster = TestCluster.of("least-connections", 3);
        cluster.node('B').active(4);
        assertEquals("ACACAC", sequence(cluster.picker(), 6));
    }

    /** Up to 64 nodes ties are tracked in a bit mask, above that by a second scan: both must rotate. */
    @ParameterizedTest
    @ValueSource(ints = {10, 64, 65, 100})
    void tiesRotateExactlyAtEveryClusterSize(int size) {
        TestCluster cluster = TestCluster.of("least-connections", size);
        for (TestNode node : cluster.nodes) {
            node.active(1);
        }
        int[] tied = {2, size / 2, size - 1};
        for (int i : tied) {
            cluster.nodes[i].active(0);
        }
        cluster.nodes[size - 2].active(0).healthy(false);
        Picker picker = cluster.picker();
        for (int round = 0; round < 3; round++) {
            for (int i : tied) {
                assertSame(cluster.nodes[i], picker.pick(null), "size " + size + " round " + round);
            }
        }
    }

    @Test
    void connectionsOpenedByPicksSpreadTheLoadEvenly() {
        TestCluster cluster = TestCluster.weighted("least-connections", 5, 1, 1);
        assertArrayEquals(new int[] {10, 10, 10}, counts(sequenceOpening(cluster.picker(), 30), 3));
    }

    @Test
    void unusableNodesAreSkippedAndAvoidIsTheLastResort() {
        TestCluster cluster = TestCluster.of("least-connections", 3);
        cluster.node('A').active(9);
        cluster.node('B').healthy(false);
        cluster.node('C').active(1);
        Picker picker = cluster.picker();
        assertSame(cluster.node('C'), picker.pick(null));
        assertSame(cluster.node('A'), picker.pick(cluster.node('C')));
        cluster.node('A').enabled(false);
        assertSame(cluster.node('C'), picker.pick(cluster.node('C')));
    }
}
