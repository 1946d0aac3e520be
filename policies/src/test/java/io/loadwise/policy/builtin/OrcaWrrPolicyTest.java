package io.loadwise.policy.builtin;

import static io.loadwise.policy.builtin.TestCluster.counts;
import static io.loadwise.policy.builtin.TestCluster.sequence;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyOptions;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OrcaWrrPolicyTest {

    private static final String ID = "orca-wrr";
    private static final long SECOND = 1_000_000_000L;

    /** A new ORCA report on the node: qps, eps, application and CPU utilization as fractions (NaN: absent). */
    private static void report(TestNode node, double qps, double eps, double application, double cpu) {
        Object[] pairs = {"APP_RQST_RATE", qps, "APP_RQST_ERR_RATE", eps, "APP_UTILIZATION%", application * 100,
            "OS_CPU_USED%", cpu * 100};
        node.metrics(pairs); // NaN values are dropped by AgentSample: absent, as on the wire
    }

    /** Every node reports {@code qps[i]} at utilization 0.5 once a second for {@code seconds}; the last picker. */
    private static Picker reportFor(TestCluster cluster, int seconds, double... qps) {
        Picker picker = null;
        for (int s = 0; s <= seconds; s++) {
            cluster.clock.set(s * SECOND);
            for (int i = 0; i < qps.length; i++) {
                report(cluster.nodes[i], qps[i], 0, 0.5, Double.NaN);
            }
            picker = cluster.rebuild(picker);
        }
        return picker;
    }

    /**
     * Each node's share of one whole EDF cycle (exact whatever slot the cycle starts at) is its weight's
     * share, to within the cycle's resolution (weights are integers, the heaviest at 1000).
     */
    private static void assertShares(Picker picker, String message, double... weights) {
        int length = ((OrcaWrrPicker) picker).table().length();
        int[] counts = counts(sequence(picker, length), weights.length);
        double sum = Arrays.stream(weights).sum();
        for (int i = 0; i < weights.length; i++) {
            assertEquals(weights[i] / sum, counts[i] / (double) length, 0.002,
                    message + ": node " + i + " of " + Arrays.toString(counts));
        }
    }

    @Test
    void weightsAreQpsOverUtilizationOnceTheBlackoutIsOver() {
        TestCluster cluster = TestCluster.of(ID, 3);
        Picker picker = reportFor(cluster, 10, 300, 100, 200); // weights 600 : 200 : 400
        assertShares(picker, "", 3, 1, 2);
        int[] many = counts(sequence(picker, 6000), 3);
        assertEquals(3000, many[0], 2);
        assertEquals(1000, many[1], 2);
    }

    /** The k-th turn of a node of weight w is due at k / w; ties go to the lower index. */
    @Test
    void theEdfCycleListsTurnsByDeadline() {
        TestCluster cluster = TestCluster.of(ID, 3);
        assertEquals("AAABAAAB", sequence(edf(cluster, 0, 3, 1), 8));
        assertEquals("BABBAB", sequence(edf(cluster, 0, 1, 2), 6));
        assertEquals("ABABCABABC", sequence(edf(cluster, 0, 2, 2, 1), 10));
        assertEquals("ABCAB", sequence(edf(cluster, 2, 2, 2, 1), 5), "started at slot 2");
        assertEquals("ABCABC", sequence(edf(cluster, 0, 5, 5, 5), 6), "equal weights: round robin");
    }

    private static Picker edf(TestCluster cluster, int start, int... weights) {
        ClusterSnapshot snapshot = new ClusterSnapshot("edf", List.of(cluster.nodes).subList(0, weights.length));
        EdfCycle cycle = new EdfCycle(snapshot, weights, start);
        return avoid -> cycle.next(avoid);
    }

    @Test
    void duringTheBlackoutEveryNodeGetsAnEqualShare() {
        TestCluster cluster = TestCluster.of(ID, 2);
        Picker picker = reportFor(cluster, 9, 300, 100); // 9 s of reports: one second short
        assertShares(picker, "", 1, 1);
        cluster.clock.set(10 * SECOND);
        picker = cluster.rebuild(picker); // no new report: the blackout counts from the first one
        assertShares(picker, "", 3, 1);
    }

    @Test
    void aBlackoutOfZeroUsesTheFirstReport() {
        TestCluster cluster = TestCluster.of(ID, 2).options(Map.of("blackoutPeriodMs", 0));
        assertShares(reportFor(cluster, 0, 300, 100), "", 3, 1);
    }

    @Test
    void aWeightExpiresThreeMinutesAfterItsLastReportAndTheBlackoutStartsAgain() {
        TestCluster cluster = TestCluster.of(ID, 3);
        Picker picker = reportFor(cluster, 10, 300, 100, 200);
        cluster.clock.set(10 * SECOND + 180 * SECOND - 1);
        picker = cluster.rebuild(picker); // the same samples: no new report
        assertShares(picker, "just before expiry", 3, 1, 2);
        cluster.clock.set(10 * SECOND + 180 * SECOND);
        picker = cluster.rebuild(picker);
        assertShares(picker, "expired: round robin", 1, 1, 1);
        for (TestNode node : cluster.nodes) {
            report(node, 100 * (node.index() + 1), 0, 0.5, Double.NaN);
        }
        cluster.clock.set(200 * SECOND);
        picker = cluster.rebuild(picker);
        assertShares(picker, "reporting again: a new blackout", 1, 1, 1);
    }

    @Test
    void theErrorPenaltyLowersTheWeightOfANodeAnsweringWithErrors() {
        TestCluster cluster = TestCluster.of(ID, 2).options(Map.of("blackoutPeriodMs", 0));
        report(cluster.node('A'), 100, 0, 0.5, Double.NaN); // 100 / 0.5 = 200
        report(cluster.node('B'), 100, 50, 0.5, Double.NaN); // 100 / (0.5 + 50/100 × 1) = 100
        assertShares(cluster.picker(), "", 2, 1);
        cluster.options(Map.of("blackoutPeriodMs", 0, "errorUtilizationPenalty", 0));
        assertShares(cluster.picker(), "penalty 0: errors do not count", 1, 1);
        cluster.options(Map.of("blackoutPeriodMs", 0, "errorUtilizationPenalty", 3));
        // 100 / (0.5 + 1.5) = 50 against 200
        assertShares(cluster.picker(), "", 4, 1);
    }

    @Test
    void applicationUtilizationWinsAndCpuStandsInWhenItIsAbsentOrZero() {
        TestCluster cluster = TestCluster.of(ID, 3).options(Map.of("blackoutPeriodMs", 0));
        report(cluster.node('A'), 100, 0, 0.25, 0.5); // 100 / 0.25 = 400
        report(cluster.node('B'), 100, 0, Double.NaN, 0.5); // 100 / 0.5 = 200
        report(cluster.node('C'), 100, 0, 0, 0.25); // 100 / 0.25 = 400
        assertShares(cluster.picker(), "", 2, 1, 2);
    }

    @Test
    void nodesWithoutAWeightGetTheMeanOfTheOthers() {
        TestCluster cluster = TestCluster.of(ID, 4).options(Map.of("blackoutPeriodMs", 0));
        report(cluster.node('A'), 300, 0, 0.5, Double.NaN); // 600
        report(cluster.node('B'), 100, 0, 0.5, Double.NaN); // 200
        report(cluster.node('C'), 0, 0, 0.5, Double.NaN); // qps 0: no weight
        // D reports nothing
        assertShares(cluster.picker(), "", 3, 1, 2, 2);
    }

    @Test
    void withFewerThanTwoWeightedNodesItIsRoundRobin() {
        TestCluster cluster = TestCluster.of(ID, 3).options(Map.of("blackoutPeriodMs", 0));
        report(cluster.node('A'), 300, 0, 0.5, Double.NaN);
        Picker picker = cluster.picker();
        assertEquals(3, ((OrcaWrrPicker) picker).table().length());
        assertArrayEquals(new int[] {1, 1, 1}, counts(sequence(picker, 3), 3));
    }

    @Test
    void garbageReadingsGiveNoWeightInsteadOfAnError() {
        TestCluster cluster = TestCluster.of(ID, 2).options(Map.of("blackoutPeriodMs", 0));
        report(cluster.node('A'), 1e308, 0, 1e-308, Double.NaN); // qps / utilization overflows
        report(cluster.node('B'), 100, Double.NaN, 0.5, Double.NaN);
        assertShares(cluster.picker(), "", 1, 1);
    }

    @Test
    void survivorsKeepTheirRatioWhenANodeIsDownAndAvoidIsTheLastResort() {
        TestCluster cluster = TestCluster.of(ID, 3).options(Map.of("blackoutPeriodMs", 0));
        report(cluster.node('A'), 300, 0, 0.5, Double.NaN);
        report(cluster.node('B'), 100, 0, 0.5, Double.NaN);
        report(cluster.node('C'), 200, 0, 0.5, Double.NaN);
        Picker picker = cluster.picker();
        cluster.node('C').healthy(false);
        int[] survivors = counts(sequence(picker, 4000), 3);
        assertEquals(3000, survivors[0], 4, Arrays.toString(survivors));
        assertEquals(0, survivors[2]);
        assertEquals(0, counts(sequence(picker, 400, cluster.node('A')), 3)[0], "A avoided");
        cluster.node('B').enabled(false);
        assertSame(cluster.node('A'), picker.pick(cluster.node('A')));
        cluster.node('A').healthy(false);
        assertNull(picker.pick(null));
    }

    @Test
    void memoryHoldsOnlyTheNodesOfTheCurrentSnapshot() {
        TestCluster cluster = TestCluster.of(ID, 3);
        OrcaWrrPicker picker = (OrcaWrrPicker) reportFor(cluster, 10, 300, 100, 200);
        ClusterSnapshot two = new ClusterSnapshot("test", List.of(cluster.nodes[0], cluster.nodes[1]));
        OrcaWrrPicker smaller = (OrcaWrrPicker) cluster.policy.newPicker(two, picker, cluster.env());
        assertEquals(2, smaller.memory.weights.length);
        assertEquals(List.of(600.0, 200.0), Arrays.stream(smaller.memory.weights).boxed().toList(),
                "the two that stay keep their weights, past their blackout");
    }

    @Test
    void optionsAreValidatedByName() {
        OrcaWrrPolicy policy = new OrcaWrrPolicy();
        assertEquals(List.of(), policy.validate(PolicyOptions.of(Map.of("blackoutPeriodMs", 0,
                "weightExpirationPeriodMs", 60_000, "errorUtilizationPenalty", 2))));
        assertEquals(List.of("policyOptions.blackoutPeriodMs: -1.0 out of range 0.0..3600000.0",
                "policyOptions.weightExpirationPeriodMs: 0.0 out of range 1.0..3600000.0",
                "policyOptions.errorUtilizationPenalty: NaN out of range 0.0..10000.0"),
                policy.validate(PolicyOptions.of(Map.of("blackoutPeriodMs", -1, "weightExpirationPeriodMs", 0,
                        "errorUtilizationPenalty", Double.NaN))));
        assertEquals(List.of("policyOptions.weightUpdatePeriodMs: 50.0 out of range 100.0..3600000.0"),
                policy.validate(PolicyOptions.of(Map.of("weightUpdatePeriodMs", 50))));
        assertTrue(policy.validate(PolicyOptions.of(Map.of("blackoutPeriod", 1000))).get(0)
                .startsWith("policyOptions.blackoutPeriod: unknown option"));
    }

    /** A58's weight_update_period: the dispatcher rebuilds the picker that often even without samples. */
    @Test
    void theWeightUpdatePeriodIsTheRebuildPeriod() {
        OrcaWrrPolicy policy = new OrcaWrrPolicy();
        assertEquals(1000, policy.rebuildPeriodMillis(PolicyOptions.EMPTY));
        assertEquals(250, policy.rebuildPeriodMillis(PolicyOptions.of(Map.of("weightUpdatePeriodMs", 250))));
        assertEquals(0, new P2cLeastRequestPolicy().rebuildPeriodMillis(PolicyOptions.EMPTY), "events only");
    }
}
