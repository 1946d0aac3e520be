package io.loadwise.policy.builtin;

import static io.loadwise.policy.builtin.TestCluster.sequence;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyOptions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Seed 001's JPR-02 as specified: argmin of Equation 2 at the last sample, saturated nodes excluded. */
class JvmAwareClassicPolicyTest {

    private static final String ID = "jvm-aware-classic";

    private static AgentSample jvm(double cpu, double iowait, double queue, double threads, double jdbc, double heap) {
        return TestNode.metricsSample("OS_CPU_USED%", cpu, "OS_CPU_IOWAIT%", iowait, "AMX_CONNS_Q_USED%", queue,
                "AMX_CONNS_Q_THRBSY%", threads, "AMX_JDBC_ACTC%", jdbc, "JVM_HEAP_USED%", heap);
    }

    @Test
    void betweenSamplesEveryRequestGoesToTheLeastLoadedNodeWhateverItsConnections() {
        TestCluster cluster = TestCluster.of(ID, 2);
        cluster.node('A').sample(jvm(20, 20, 20, 20, 20, 20)); // load 20
        cluster.node('B').sample(jvm(60, 60, 50, 60, 70, 60)); // load 60, queue under 55
        Picker picker = cluster.picker();
        // This is the herd the seed's rule makes and jvm-aware departs from: connections do not count.
        assertEquals("AAAAAAAAAA", TestCluster.sequenceOpening(picker, 10));
        assertEquals(10, cluster.node('A').activeConnections());
    }

    @Test
    void saturatedNodesAreExcludedEvenAsLastResort() {
        TestCluster cluster = TestCluster.of(ID, 3);
        cluster.node('A').sample(jvm(50, 5, 10, 40, 20, 60));
        cluster.node('B').sample(jvm(10, 1, 56, 5, 5, 20)); // lowest mean, but queue above 55
        cluster.node('C').sample(jvm(30, 5, 10, 20, 20, 86)); // heap above 85
        Picker picker = cluster.picker();
        assertEquals("AAA", sequence(picker, 3));
        assertSame(cluster.node('A'), picker.pick(cluster.node('A')), "the avoided node beats nothing");
        cluster.node('A').healthy(false);
        assertNull(picker.pick(null), "a saturated node is never picked");
    }

    @Test
    void thresholdsAreOptionsAndTripOnlyAbove() {
        TestCluster cluster = TestCluster.of(ID, 2).options(Map.of("heapThreshold", 90));
        cluster.node('A').sample(jvm(10, 0, 10, 0, 0, 89)); // load 18.2, heap under 90
        cluster.node('B').sample(jvm(40, 0, 55, 0, 0, 50)); // load 24.2, queue exactly at 55 does not trip
        assertEquals("AA", sequence(cluster.picker(), 2));
        assertEquals(List.of("policyOptions.heapThreshold: 101.0 out of range 0.0..100.0"),
                new JvmAwareClassicPolicy().validate(PolicyOptions.of(Map.of("heapThreshold", 101))));
    }

    @Test
    void equalLoadsRotate() {
        TestCluster cluster = TestCluster.of(ID, 3);
        cluster.node('A').sample(jvm(10, 10, 10, 10, 10, 10));
        cluster.node('B').sample(jvm(20, 0, 10, 10, 10, 10));
        cluster.node('C').sample(jvm(30, 10, 10, 10, 10, 10));
        assertEquals("ABABAB", sequence(cluster.picker(), 6));
    }

    @Test
    void unknownNodesTakeAnAverageShareAndAreNeverExcluded() {
        TestCluster cluster = TestCluster.of(ID, 3);
        cluster.node('A').sample(jvm(20, 20, 20, 20, 20, 20));
        cluster.node('B').sample(jvm(10, 0, 56, 0, 0, 20)); // saturated
        // C has no sample: one pick in three goes to it, the others to A, the least loaded known node
        int[] picks = TestCluster.counts(sequence(cluster.picker(), 30), 3);
        assertEquals(20, picks[0]);
        assertEquals(0, picks[1]);
        assertEquals(10, picks[2]);
        cluster.node('A').healthy(false);
        assertEquals("CCC", sequence(cluster.picker(), 3), "with A down only the unknown node is left");
    }
}
