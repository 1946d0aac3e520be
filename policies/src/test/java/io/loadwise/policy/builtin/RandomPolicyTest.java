package io.loadwise.policy.builtin;

import static io.loadwise.policy.builtin.TestCluster.counts;
import static io.loadwise.policy.builtin.TestCluster.sequence;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.loadwise.policy.Picker;
import org.junit.jupiter.api.Test;

class RandomPolicyTest {

    private static final int PICKS = 30_000;
    private static final double EPSILON = 0.015;

    @Test
    void everyNodeGetsAnEqualShare() {
        TestCluster cluster = TestCluster.weighted("random", 5, 1, 1);
        int[] counts = counts(sequence(cluster.picker(), PICKS), 3);
        for (int c : counts) {
            assertEquals(1.0 / 3, c / (double) PICKS, EPSILON, "weights must not matter: " + c);
        }
    }

    @Test
    void sameSeedGivesSameSequenceAndOtherSeedDoesNot() {
        TestCluster cluster = TestCluster.of("random", 5);
        String first = sequence(cluster.picker(), 50);
        assertEquals(first, sequence(cluster.picker(), 50));
        cluster.seed = 7;
        assertNotEquals(first, sequence(cluster.picker(), 50));
    }

    @Test
    void unusableNodesAreNeverPickedAndTheRestStayUniform() {
        TestCluster cluster = TestCluster.of("random", 4);
        cluster.node('B').healthy(false);
        cluster.node('C').enabled(false);
        int[] counts = counts(sequence(cluster.picker(), PICKS), 4);
        assertEquals(0, counts[1]);
        assertEquals(0, counts[2]);
        assertEquals(0.5, counts[0] / (double) PICKS, EPSILON);
        assertEquals(0.5, counts[3] / (double) PICKS, EPSILON);
    }

    @Test
    void avoidIsReturnedOnlyAsLastResort() {
        TestCluster cluster = TestCluster.of("random", 3);
        Picker picker = cluster.picker();
        assertFalse(sequence(picker, 1000, cluster.node('A')).contains("A"));
        cluster.node('B').healthy(false);
        cluster.node('C').healthy(false);
        assertSame(cluster.node('A'), picker.pick(cluster.node('A')));
    }

    @Test
    void noUsableNodeGivesNull() {
        TestCluster cluster = TestCluster.of("random", 2);
        cluster.node('A').healthy(false);
        cluster.node('B').enabled(false);
        assertNull(cluster.picker().pick(null));
    }
}
