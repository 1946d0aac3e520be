package io.loadwise.policy.builtin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.PolicyOptions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Seed 003: round robin below the traffic-intensity threshold, least connections above it. */
class RoundRobinToLeastConnectionsPolicyTest {

    private static final String ID = "rr-to-lc";
    private static final long TICK = TrafficIntensity.BUCKET_NANOS;

    private static RoundRobinToLeastConnectionsPolicy.SwitchPicker picker(TestCluster cluster) {
        return (RoundRobinToLeastConnectionsPolicy.SwitchPicker) cluster.picker();
    }

    /** {@code perTick} picks in each of {@code ticks} 100 ms buckets, the clock moving on. */
    private static String drive(TestCluster cluster, RoundRobinToLeastConnectionsPolicy.SwitchPicker picker,
            int ticks, int perTick) {
        StringBuilder names = new StringBuilder();
        for (int t = 0; t < ticks; t++) {
            names.append(TestCluster.sequence(picker, perTick));
            cluster.clock.addAndGet(TICK);
        }
        return names.toString();
    }

    @Test
    void atLowIntensityItIsRoundRobinWhateverTheConnections() {
        TestCluster cluster = TestCluster.of(ID, 3);
        cluster.node('A').active(0);
        cluster.node('B').active(0);
        cluster.node('C').active(1); // one node of three busy: ρ about 0.33
        RoundRobinToLeastConnectionsPolicy.SwitchPicker picker = picker(cluster);
        assertEquals("ABCABCABCABCABC".repeat(4), drive(cluster, picker, 20, 3));
        assertFalse(picker.intensity.leastConnections());
        assertEquals(1 / 3.0, picker.intensity.lastIntensity(), 0.05);
    }

    @Test
    void withNodeCapacityItSwitchesAboveEightyPercentAndBackBelowSeventy() {
        TestCluster cluster = TestCluster.of(ID, 2).options(Map.of("nodeCapacity", 10)); // Σμ = 20 req/s
        cluster.node('A').active(5);
        RoundRobinToLeastConnectionsPolicy.SwitchPicker picker = picker(cluster);
        drive(cluster, picker, 12, 2); // 20 req/s against Σμ = 20: ρ reaches 0.8 once 0.8 s are in the window
        assertTrue(picker.intensity.leastConnections());
        assertEquals("BBBB", TestCluster.sequence(picker, 4), "least connections: A has 5 open");
        drive(cluster, picker, 15, 1); // 10 req/s: ρ falls to 0.5
        assertFalse(picker.intensity.leastConnections());
        assertEquals(0.5, picker.intensity.lastIntensity(), 0.06);
    }

    @Test
    void theDwellKeepsAFreshSwitchForOneWindow() {
        TestCluster cluster = TestCluster.of(ID, 2).options(Map.of("nodeCapacity", 10));
        RoundRobinToLeastConnectionsPolicy.SwitchPicker picker = picker(cluster);
        drive(cluster, picker, 12, 2); // switches at 0.8 s
        assertTrue(picker.intensity.leastConnections());
        drive(cluster, picker, 5, 0); // silence: ρ falls, but the switch was less than a second ago
        picker.pick(null);
        assertTrue(picker.intensity.leastConnections());
    }

    @Test
    void withoutNodeCapacityTheShareOfBusyNodesIsTheIntensity() {
        TestCluster cluster = TestCluster.of(ID, 3);
        for (TestNode node : cluster.nodes) {
            node.active(2); // every node has work: utilisation 1
        }
        RoundRobinToLeastConnectionsPolicy.SwitchPicker picker = picker(cluster);
        drive(cluster, picker, 4, 10);
        assertTrue(picker.intensity.leastConnections());
        assertEquals(1, picker.intensity.lastIntensity(), 1e-9);
    }

    @Test
    void aRebuildKeepsTheModeAndTheWindow() {
        TestCluster cluster = TestCluster.of(ID, 2).options(Map.of("nodeCapacity", 10));
        RoundRobinToLeastConnectionsPolicy.SwitchPicker picker = picker(cluster);
        drive(cluster, picker, 12, 2);
        var rebuilt = (RoundRobinToLeastConnectionsPolicy.SwitchPicker) cluster.rebuild(picker);
        assertTrue(rebuilt.intensity.leastConnections());
    }

    @Test
    void optionsAreValidated() {
        RoundRobinToLeastConnectionsPolicy policy = new RoundRobinToLeastConnectionsPolicy();
        assertEquals(List.of(), policy.validate(PolicyOptions.of(Map.of("nodeCapacity", 104.13, "switchUp", 0.88))));
        assertEquals(List.of("policyOptions.switchDown: 0.9 must be below switchUp (0.8)"),
                policy.validate(PolicyOptions.of(Map.of("switchDown", 0.9))));
        assertEquals(List.of("policyOptions.capacity: unknown option, known: nodeCapacity, switchUp, switchDown"),
                policy.validate(PolicyOptions.of(Map.of("capacity", 1))));
    }
}
