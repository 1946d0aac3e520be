package io.loadwise.policy.builtin;

import static io.loadwise.policy.builtin.TestCluster.counts;
import static io.loadwise.policy.builtin.TestCluster.sequence;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyOptions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class P2cLeastRequestPolicyTest {

    private static final String ID = "p2c-least-request";

    @Test
    void ofTwoNodesTheOneWithFewerInFlightAlwaysWins() {
        TestCluster cluster = TestCluster.of(ID, 2);
        cluster.node('A').active(5);
        cluster.node('B').active(4);
        assertEquals("B".repeat(50), sequence(cluster.picker(), 50));
    }

    /**
     * Of 10 nodes with 0..9 in flight, node k wins when it is drawn and the other draw holds more: with two
     * distinct uniform draws that is 2 (9 - k) / 90. The counts must follow it, not the argmin's all-to-A.
     */
    @Test
    void winsFollowTheTwoChoicesDistribution() {
        TestCluster cluster = TestCluster.of(ID, 10);
        for (TestNode node : cluster.nodes) {
            node.active(node.index());
        }
        int picks = 90_000;
        int[] counts = counts(sequence(cluster.picker(), picks), 10);
        for (int k = 0; k < 10; k++) {
            double expected = picks * 2.0 * (9 - k) / 90;
            assertEquals(expected, counts[k], 4 * Math.sqrt(expected) + 1, "node " + k);
        }
    }

    @Test
    void aBurstSpreadsOverEveryNodeAsRequestsStayInFlight() {
        TestCluster cluster = TestCluster.of(ID, 4);
        int[] counts = counts(TestCluster.sequenceOpening(cluster.picker(), 400), 4);
        for (int c : counts) {
            assertEquals(100, c, 2, java.util.Arrays.toString(counts));
        }
    }

    /** Envoy's active-request bias 1: weight 3 with 2 in flight (3/3) loses to weight 2 idle (2/1). */
    @Test
    void unequalWeightsCompareWeightOverInFlightPlusOne() {
        TestCluster cluster = TestCluster.weighted(ID, 3, 2);
        cluster.node('A').active(2);
        assertEquals("B".repeat(20), sequence(cluster.picker(), 20));
        cluster.node('A').active(0); // 3/1 against 2/1
        assertEquals("A".repeat(20), sequence(cluster.picker(), 20));
    }

    @Test
    void aBurstFillsWeightedNodesInProportionToTheirWeight() {
        TestCluster cluster = TestCluster.weighted(ID, 3, 1);
        int[] counts = counts(TestCluster.sequenceOpening(cluster.picker(), 400), 2);
        assertEquals(300, counts[0], 3, "(active + 1) / weight levels out at 3:1");
    }

    @Test
    void biasZeroIgnoresInFlightAndBiasTwoWeighsItMore() {
        TestCluster zero = TestCluster.weighted(ID, 3, 2).options(Map.of("activeRequestBias", 0));
        zero.node('A').active(50);
        assertEquals("A".repeat(10), sequence(zero.picker(), 10), "bias 0: the heavier weight always");
        TestCluster two = TestCluster.weighted(ID, 3, 2).options(Map.of("activeRequestBias", 2));
        two.node('A').active(1); // 3/4 against 2/1
        assertEquals("B".repeat(10), sequence(two.picker(), 10));
        TestCluster one = TestCluster.weighted(ID, 3, 2);
        one.node('A').active(1); // 3/2 against 2/1: bias 1 still prefers B, by less
        assertEquals("B".repeat(10), sequence(one.picker(), 10));
        TestCluster half = TestCluster.weighted(ID, 3, 2).options(Map.of("activeRequestBias", 0.5));
        half.node('A').active(1); // 3/1.41 = 2.12 against 2/1
        assertEquals("A".repeat(10), sequence(half.picker(), 10));
    }

    @Test
    void equalWeightsCompareInFlightWhateverTheBias() {
        TestCluster cluster = TestCluster.weighted(ID, 2, 2).options(Map.of("activeRequestBias", 0));
        cluster.node('A').active(3);
        assertEquals("B".repeat(10), sequence(cluster.picker(), 10));
    }

    @Test
    void unusableNodesAreNeverPicked() {
        TestCluster cluster = TestCluster.of(ID, 6);
        cluster.node('A').healthy(false);
        cluster.node('B').enabled(false);
        cluster.node('C').active(0);
        for (TestNode node : cluster.nodes) {
            node.active(node == cluster.node('C') ? 0 : 9);
        }
        int[] counts = counts(sequence(cluster.picker(), 3000), 6);
        assertEquals(0, counts[0] + counts[1]);
        assertTrue(counts[2] > 1500, "the idle usable node wins most: " + java.util.Arrays.toString(counts));
    }

    @Test
    void avoidIsTheLastResortOnly() {
        TestCluster cluster = TestCluster.of(ID, 3);
        cluster.node('A').active(0);
        cluster.node('B').active(7);
        cluster.node('C').active(7);
        Picker picker = cluster.picker();
        for (int i = 0; i < 50; i++) {
            NodeView picked = picker.pick(cluster.node('A'));
            assertTrue(picked != cluster.node('A'), "returned the avoided node");
        }
        cluster.node('B').healthy(false);
        cluster.node('C').healthy(false);
        assertSame(cluster.node('A'), picker.pick(cluster.node('A')));
        cluster.node('A').healthy(false);
        assertNull(picker.pick(null));
    }

    @Test
    void optionsAreValidatedByName() {
        P2cLeastRequestPolicy policy = new P2cLeastRequestPolicy();
        assertEquals(List.of(), policy.validate(PolicyOptions.of(Map.of("activeRequestBias", 1.5))));
        assertEquals(List.of("policyOptions.activeRequestBias: -1.0 out of range 0.0..10.0"),
                policy.validate(PolicyOptions.of(Map.of("activeRequestBias", -1))));
        assertEquals(List.of("policyOptions.activeRequestBias: NaN out of range 0.0..10.0"),
                policy.validate(PolicyOptions.of(Map.of("activeRequestBias", Double.NaN))));
        assertTrue(policy.validate(PolicyOptions.of(Map.of("choiceCount", 3))).get(0)
                .startsWith("policyOptions.choiceCount: unknown option, known: activeRequestBias"));
    }
}
