package io.loadwise.policy.builtin;

import static io.loadwise.policy.builtin.TestCluster.sequence;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.loadwise.policy.Picker;
import org.junit.jupiter.api.Test;

class RoundRobinPolicyTest {

    @Test
    void cyclesInConfigurationOrderIgnoringWeights() {
        TestCluster cluster = TestCluster.weighted("round-robin", 3, 1, 2);
        assertEquals("ABCABCABC", sequence(cluster.picker(), 9));
    }

    @Test
    void anUnusableNodesTurnIsSkippedNotGivenToItsSuccessor() {
        TestCluster cluster = TestCluster.of("round-robin", 3);
        cluster.node('B').healthy(false);
        assertEquals("ACACAC", sequence(cluster.picker(), 6));
    }

    @Test
    void cursorCarriesOverARebuildOfTheSamePolicy() {
        TestCluster cluster = TestCluster.of("round-robin", 3);
        Picker first = cluster.picker();
        assertEquals("AB", sequence(first, 2));
        assertEquals("CAB", sequence(cluster.rebuild(first), 3));
    }

    @Test
    void cursorDoesNotCarryOverFromAnotherPolicy() {
        TestCluster wrr = TestCluster.of("static-wrr", 3);
        Picker other = wrr.picker();
        sequence(other, 2);
        TestCluster rr = TestCluster.of("round-robin", 3);
        assertEquals("ABC", sequence(rr.policy.newPicker(rr.snapshot, other, rr.env()), 3));
    }

    @Test
    void avoidedNodeLosesItsTurn() {
        TestCluster cluster = TestCluster.of("round-robin", 3);
        assertEquals("ACAC", sequence(cluster.picker(), 4, cluster.node('B')));
    }
}
