package io.loadwise.policy.builtin;

import static io.loadwise.policy.builtin.TestCluster.counts;
import static io.loadwise.policy.builtin.TestCluster.sequence;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyOptions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class F5DynamicRatioPolicyTest {

    private static final String MEM = "OS_MEM_USED%";
    private static final String CPU = "OS_CPU_USED%";
    private static final String IOWAIT = "OS_CPU_IOWAIT%";

    /** Seed 001, Table 1: node 1 at 20% everywhere, node 2 at 40%. */
    private static TestCluster table1() {
        TestCluster cluster = TestCluster.of("f5-dynamic-ratio", 2);
        cluster.node('A').metrics(MEM, 20, CPU, 20, IOWAIT, 20);
        cluster.node('B').metrics(MEM, 40, CPU, 40, IOWAIT, 40);
        return cluster;
    }

    @Test
    void table1TermsAndWeightsMatchTheSeed() {
        F5Weights f5 = F5Weights.DEFAULTS;
        assertEquals(5.18 + 13.34 + 35.94, f5.rawWeight(20, 20, 20), 0.02);
        assertEquals(2.68 + 5.62 + 12.92, f5.rawWeight(40, 40, 40), 0.02);
        TestCluster cluster = table1();
        assertEquals(54, f5.weight(cluster.node('A').agentSample()));
        assertEquals(21, f5.weight(cluster.node('B').agentSample()));
    }

    @Test
    void table1GivesA54To21RatioInterleaved() {
        String picks = sequence(table1().picker(), 75 * 4);
        assertArrayEquals(new int[] {54 * 4, 21 * 4}, counts(picks, 2));
        assertFalse(picks.contains("AAAA"), "54:21 never needs more than three A in a row: " + picks);
        assertFalse(picks.contains("BB"), picks);
    }

    @Test
    void weightsAreClampedTo1Through100() {
        F5Weights f5 = F5Weights.DEFAULTS;
        assertEquals(100, f5.weight(TestNode.metricsSample(MEM, 0, CPU, 0, IOWAIT, 0)));
        assertEquals(1, f5.weight(TestNode.metricsSample(MEM, 100, CPU, 100, IOWAIT, 100)));
    }

    @Test
    void nodesMissingAMetricOrSampleJoinTheCycleWithTheMeanKnownRatio() {
        TestCluster cluster = TestCluster.of("f5-dynamic-ratio", 4);
        cluster.node('A').metrics(MEM, 20, CPU, 20, IOWAIT, 20); // 54
        cluster.node('B').metrics(MEM, 40, CPU, 40, IOWAIT, 40); // 21
        cluster.node('C').metrics(MEM, 20, CPU, 20);              // no I/O wait: unknown
        cluster.node('D').active(2);                              // no sample: unknown
        assertArrayEquals(new int[] {54, 21, 38, 38}, F5DynamicRatioPolicy.weights(F5Weights.DEFAULTS, cluster.snapshot),
                "unknown nodes get round((54 + 21) / 2)");
        assertArrayEquals(new int[] {54, 21, 38, 38}, counts(sequence(cluster.picker(), 151), 4), "one full cycle");
    }

    @Test
    void whenTheCycleYieldsNothingUsableLeastConnectionsDecides() {
        TestCluster cluster = table1();
        Picker picker = cluster.picker();
        cluster.node('A').healthy(false);
        assertEquals("BBB", sequence(picker, 3));
        cluster.node('B').enabled(false);
        assertEquals("---", sequence(picker, 3));
        cluster.node('A').healthy(true);
        assertSame(cluster.node('A'), picker.pick(cluster.node('A')), "avoid as the last resort");
    }

    @Test
    void withoutAnyFreshSampleItIsRoundRobin() {
        TestCluster cluster = TestCluster.of("f5-dynamic-ratio", 3);
        cluster.node('A').active(4);
        cluster.node('C').active(1);
        assertEquals("ABCABC", sequence(cluster.picker(), 6));
        assertEquals(3, ((WrrPicker) cluster.picker()).table().length());
    }

    @Test
    void aRebuildAfterNewSamplesAppliesTheNewRatios() {
        TestCluster cluster = table1();
        Picker first = cluster.picker();
        sequence(first, 10);
        cluster.node('A').metrics(MEM, 40, CPU, 40, IOWAIT, 40);
        cluster.node('B').metrics(MEM, 20, CPU, 20, IOWAIT, 20);
        assertArrayEquals(new int[] {21, 54}, counts(sequence(cluster.rebuild(first), 75), 2));
    }

    @Test
    void optionsChangeTheFormula() {
        TestCluster cluster = table1().options(Map.of("cpuCoefficient", 0, "diskCoefficient", 0));
        // memory term as in Table 1, the other two are 10^0 = 1: 5.18 + 2 and 2.68 + 2.
        String picks = sequence(cluster.picker(), 12);
        assertArrayEquals(new int[] {7, 5}, counts(picks, 2));
    }

    @Test
    void optionsAreValidated() {
        F5DynamicRatioPolicy policy = new F5DynamicRatioPolicy();
        assertTrue(policy.validate(PolicyOptions.of(Map.of("cpuThreshold", 80, "nodesInPool", 10))).isEmpty());
        List<String> errors = policy.validate(PolicyOptions.of(Map.of("cpuTreshold", 80, "diskThreshold", 0,
                "memoryCoefficient", -1)));
        assertEquals(3, errors.size(), errors.toString());
        assertTrue(errors.get(0).startsWith("policyOptions.cpuTreshold: unknown option, known: nodesInPool"), errors.get(0));
        assertTrue(errors.contains("policyOptions.diskThreshold: 0.0 out of range 1.0..100.0"), errors.toString());
        assertTrue(errors.contains("policyOptions.memoryCoefficient: -1.0 out of range 0.0..10.0"), errors.toString());
    }
}
