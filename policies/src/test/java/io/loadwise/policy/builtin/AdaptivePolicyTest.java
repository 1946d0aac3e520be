package io.loadwise.policy.builtin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyOptions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AdaptivePolicyTest {

    private static final String ID = "adaptive";
    private static final long SECOND = 1_000_000_000L;

    /** A sample of Equation 2 load {@code load}: CPU, I/O wait, threads and JDBC at it, no queue or heap to trip. */
    static AgentSample load(double load) {
        return TestNode.metricsSample("OS_CPU_USED%", load, "OS_CPU_IOWAIT%", load, "AMX_CONNS_Q_THRBSY%", load,
                "AMX_JDBC_ACTC%", load);
    }

    /** Picks {@code count} times, each pick opening a request that stays in flight, as in a burst between samples. */
    private static int[] burst(Picker picker, int count, int nodes) {
        return TestCluster.counts(TestCluster.sequenceOpening(picker, count), nodes);
    }

    @Test
    void aBurstBetweenSamplesSpreadsOverEveryNodeInsteadOfHerding() {
        TestCluster cluster = TestCluster.of(ID, 10);
        for (TestNode node : cluster.nodes) {
            node.sample(load(10 + node.index())).peakEwma(20); // A is the least loaded, by a little
        }
        Picker picker = cluster.picker();
        for (int second = 0; second < 10; second++) {
            int[] picks = burst(picker, 100, 10);
            for (int node = 0; node < 10; node++) {
                assertTrue(picks[node] >= 5 && picks[node] <= 15,
                        "second " + second + ": node " + node + " took " + picks[node] + " of 100");
            }
        }
        TestCluster classic = TestCluster.of("jvm-aware-classic", 10);
        for (TestNode node : classic.nodes) {
            node.sample(load(10 + node.index()));
        }
        assertEquals(100, burst(classic.picker(), 100, 10)[0], "the seed's argmin sends the whole burst to A");
    }

    @Test
    void inFlightWorkSpreadsInProportionToHeadroom() {
        TestCluster cluster = TestCluster.of(ID, 2);
        cluster.node('A').sample(load(20)).peakEwma(20); // headroom 0.8
        cluster.node('B').sample(load(60)).peakEwma(20); // headroom 0.4
        int[] picks = burst(cluster.picker(), 300, 2);
        assertEquals(200, picks[0], 3, "2:1 headroom, 2:1 requests in flight");
    }

    @Test
    void aSlowerNodeTakesLessInProportionToItsLatency() {
        TestCluster cluster = TestCluster.of(ID, 2);
        cluster.node('A').sample(load(30)).peakEwma(10);
        cluster.node('B').sample(load(30)).peakEwma(30);
        int[] picks = burst(cluster.picker(), 400, 2);
        assertEquals(300, picks[0], 3, "a third of the latency, three times the requests in flight");
    }

    @Test
    void aNodeThatLooksIdleTakesAtMostFourTimesItsRivalsRequestsBeforeItAnswers() {
        TestCluster cluster = TestCluster.of(ID, 2);
        cluster.node('A').sample(load(30)).peakEwma(200);
        cluster.node('B').sample(load(30)).peakEwma(0); // never answered, or decayed after a long silence
        int[] picks = burst(cluster.picker(), 500, 2);
        assertEquals(400, picks[1], 3);
    }

    @Test
    void saturatedNodesAreExcludedEvenAsTheLastResortWhileTheirSampleIsFresh() {
        TestCluster cluster = TestCluster.of(ID, 3);
        cluster.node('A').sample(load(30));
        cluster.node('B').metrics("OS_CPU_USED%", 10, "AMX_CONNS_Q_USED%", 56); // queue over 55
        cluster.node('C').metrics("OS_CPU_USED%", 10, "JVM_HEAP_USED%", 86); // heap over 85
        Picker picker = cluster.picker();
        assertEquals("AAAAA", TestCluster.sequence(picker, 5));
        assertSame(cluster.node('A'), picker.pick(cluster.node('A')), "the avoided node beats nothing");
        cluster.node('A').healthy(false);
        assertNull(picker.pick(null));
        cluster.clock.set(3 * SECOND); // the samples have faded out: B and C are unknown, not saturated
        assertTrue(picker.pick(null) != null);
    }

    @Test
    void anAgeingSampleFadesToTheAverageSoThePolicyBecomesLeastRequests() {
        TestCluster cluster = TestCluster.of(ID, 2);
        cluster.node('A').sample(load(80)).peakEwma(20); // headroom 0.2
        cluster.node('B').sample(load(0)).peakEwma(20); // headroom 1.0; average 0.6
        AdaptivePicker picker = (AdaptivePicker) cluster.picker();
        AdaptiveCost cost = costOf(cluster, picker);
        assertEquals(0.2, cost.headroom(0, SECOND), 1e-9, "fresh until agentFadeStartMs (1 s)");
        assertEquals(0.4, cost.headroom(0, 2 * SECOND), 1e-9, "half way to the average at 2 s");
        assertEquals(0.6, cost.headroom(0, 3 * SECOND), 1e-9, "the average from agentFadeEndMs (3 s)");
        cluster.clock.set(3 * SECOND);
        int[] picks = burst(picker, 100, 2);
        assertEquals(50, picks[0], 1, "equal headroom and latency: least requests");
    }

    @Test
    void aRebuildKeepsASampleItsAgeAndANewSampleIsFresh() {
        TestCluster cluster = TestCluster.of(ID, 2);
        cluster.node('A').sample(load(80));
        cluster.node('B').sample(load(0));
        Picker first = cluster.picker();
        cluster.clock.set(3 * SECOND);
        AdaptivePicker same = (AdaptivePicker) cluster.rebuild(first);
        assertEquals(0.6, costOf(cluster, same).headroom(0, 3 * SECOND), 1e-9, "still the sample seen at 0");
        cluster.node('A').sample(load(80));
        AdaptivePicker renewed = (AdaptivePicker) cluster.rebuild(same);
        assertEquals(0.2, costOf(cluster, renewed).headroom(0, 3 * SECOND), 1e-9);
    }

    @Test
    void aNodeThatComesBackRampsUpOverSlowStart() {
        TestCluster cluster = TestCluster.of(ID, 2);
        for (TestNode node : cluster.nodes) {
            node.sample(load(20)).peakEwma(20);
        }
        cluster.node('B').healthy(false);
        Picker before = cluster.picker();
        cluster.node('B').healthy(true);
        AdaptivePicker after = (AdaptivePicker) cluster.rebuild(before); // B is back at 0
        AdaptiveCost cost = costOf(cluster, after);
        assertEquals(1, cost.ramp(0, 0), "A never left");
        assertEquals(0.1, cost.ramp(1, 0), 1e-9);
        assertEquals(0.5, cost.ramp(1, 5 * SECOND), 1e-9);
        assertEquals(1, cost.ramp(1, 10 * SECOND), 1e-9);
        int[] picks = burst(after, 110, 2);
        assertEquals(10, picks[1], 2, "at 10 % of its weight B takes a tenth of A's requests");
        assertEquals(1, costOf(cluster, (AdaptivePicker) cluster.rebuild(cluster.picker())).ramp(1, 0),
                "a cluster that starts with the policy does not ramp");
    }

    /** The shared contract suites use five nodes, which are compared in full; this covers the two-choice path. */
    @Test
    void twoChoicesInALargeClusterKeepThePickContract() {
        TestCluster cluster = TestCluster.of(ID, 12);
        for (TestNode node : cluster.nodes) {
            node.sample(load(5 * node.index())).peakEwma(10 + node.index()).active(node.index() % 4);
        }
        cluster.node('C').metrics("JVM_HEAP_USED%", 90); // saturated
        Picker picker = cluster.picker();
        java.util.Random flips = new java.util.Random(7);
        for (int round = 0; round < 2_000; round++) {
            TestNode flipped = cluster.nodes[flips.nextInt(12)];
            flipped.healthy(!flipped.healthy());
            TestNode avoid = flips.nextBoolean() ? cluster.nodes[flips.nextInt(12)] : null;
            int others = 0;
            for (TestNode node : cluster.nodes) {
                others += node.usable() && node != avoid && node.index() != 2 ? 1 : 0;
            }
            io.loadwise.policy.NodeView picked = picker.pick(avoid);
            if (others > 0) {
                assertTrue(picked != null && picked.usable() && picked != avoid && picked.index() != 2,
                        "round " + round + ": " + picked);
            } else {
                assertTrue(picked == null || picked == avoid, "round " + round + ": " + picked);
            }
        }
    }

    @Test
    void inASmallClusterEveryPickComparesAllNodes() {
        TestCluster cluster = TestCluster.of(ID, 3);
        cluster.node('A').sample(load(50)).peakEwma(20).active(3);
        cluster.node('B').sample(load(50)).peakEwma(20).active(1);
        cluster.node('C').sample(load(50)).peakEwma(20).active(2);
        assertEquals("BBB", TestCluster.sequence(cluster.picker(), 3), "the cheapest, not the cheaper of two");
    }

    @Test
    void optionsAreValidatedByName() {
        AdaptivePolicy policy = new AdaptivePolicy();
        assertEquals(List.of(), policy.validate(PolicyOptions.of(Map.of("slowStartMs", 0, "heapThreshold", 90))));
        assertEquals(List.of("policyOptions.slow: unknown option, known: queueThreshold, heapThreshold, slowStartMs,"
                        + " agentFadeStartMs, agentFadeEndMs", "policyOptions.slowStartMs: -1.0 out of range 0.0..3600000.0"),
                policy.validate(PolicyOptions.of(Map.of("slow", 1, "slowStartMs", -1))));
        assertEquals(List.of("policyOptions.agentFadeEndMs: 500.0 must be greater than agentFadeStartMs (1000.0)"),
                policy.validate(PolicyOptions.of(Map.of("agentFadeEndMs", 500))));
    }

    private static AdaptiveCost costOf(TestCluster cluster, AdaptivePicker picker) {
        return new AdaptiveCost(cluster.snapshot, AdaptiveSettings.from(cluster.options), picker.memory);
    }
}
