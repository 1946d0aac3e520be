package io.loadwise.policy.builtin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyOptions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Seed 000's RT policy: weights inversely proportional to a moving average probed every 5 s. */
class ProbedResponseTimePolicyTest {

    private static final String ID = "probed-response-time";
    private static final long SECOND = 1_000_000_000L;

    private static int[] picks(Picker picker, int count, int nodes) {
        return TestCluster.counts(TestCluster.sequence(picker, count), nodes);
    }

    @Test
    void aNodeWithAThirdOfTheResponseTimeGetsThreeTimesTheRequests() {
        TestCluster cluster = TestCluster.of(ID, 2);
        cluster.node('A').responseTime(10);
        cluster.node('B').responseTime(30);
        assertEquals(3000, picks(cluster.picker(), 4000, 2)[0], 120);
    }

    @Test
    void betweenProbesAChangeGoesUnseenAndTheNextProbeAveragesItIn() {
        TestCluster cluster = TestCluster.of(ID, 2);
        cluster.node('A').responseTime(10);
        cluster.node('B').responseTime(10);
        ProbedResponseTimePolicy.ProbePicker picker = (ProbedResponseTimePolicy.ProbePicker) cluster.picker();
        cluster.node('A').responseTime(90); // A starts to thrash
        cluster.clock.set(4 * SECOND);
        assertEquals(1000, picks(picker, 2000, 2)[0], 100, "the switch still sees the probe taken at 0");
        cluster.clock.set(5 * SECOND);
        picker.pick(null);
        assertEquals(50, picker.probe.averageMillis(0), 1e-9, "half the new probe, half the history");
        assertEquals(2000 / 6, picks(picker, 2000, 2)[0], 80, "weights 1/50 : 1/10");
    }

    @Test
    void aStalledNodeCountsOneSecondAndAnIdleUnmeasuredOneTheAverageWeight() {
        TestCluster cluster = TestCluster.of(ID, 3);
        cluster.node('A').responseTime(10);
        cluster.node('B').inFlight(3); // nothing finished within a second: at least 1 s
        ProbedResponseTimePolicy.ProbePicker picker = (ProbedResponseTimePolicy.ProbePicker) cluster.picker();
        assertEquals(1000, picker.probe.averageMillis(1), 1e-9);
        assertTrue(Double.isNaN(picker.probe.averageMillis(2)));
        // weights A 1/10, B 1/1000 (the 1 % floor of A's), C the mean of A and B: 0.0505
        int[] picks = picks(picker, 6000, 3);
        assertEquals(6000 * 0.1 / 0.1515, picks[0], 150);
        assertEquals(6000 * 0.001 / 0.1515, picks[1], 30);
    }

    @Test
    void aRebuildKeepsTheAveragesAndTheProbeSchedule() {
        TestCluster cluster = TestCluster.of(ID, 2);
        cluster.node('A').responseTime(10);
        cluster.node('B').responseTime(20);
        Picker first = cluster.picker();
        cluster.node('A').responseTime(200);
        cluster.clock.set(SECOND);
        ProbedResponseTimePolicy.ProbePicker rebuilt = (ProbedResponseTimePolicy.ProbePicker) cluster.rebuild(first);
        assertEquals(10, rebuilt.probe.averageMillis(0), 1e-9, "no probe out of turn");
    }

    @Test
    void theProbeIntervalIsAnOption() {
        ProbedResponseTimePolicy policy = new ProbedResponseTimePolicy();
        assertEquals(List.of(), policy.validate(PolicyOptions.of(Map.of("probeIntervalMs", 1000))));
        assertEquals(List.of("policyOptions.probeIntervalMs: 50.0 out of range 100.0..600000.0"),
                policy.validate(PolicyOptions.of(Map.of("probeIntervalMs", 50))));
        TestCluster cluster = TestCluster.of(ID, 2).options(Map.of("probeIntervalMs", 1000));
        cluster.node('A').responseTime(10);
        cluster.node('B').responseTime(10);
        ProbedResponseTimePolicy.ProbePicker picker = (ProbedResponseTimePolicy.ProbePicker) cluster.picker();
        cluster.node('A').responseTime(30);
        cluster.clock.set(SECOND);
        picker.pick(null);
        assertEquals(20, picker.probe.averageMillis(0), 1e-9);
    }
}
