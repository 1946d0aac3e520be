package io.loadwise.policy.builtin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Nodes an agent-driven policy cannot judge (no agent, a silent one, or a sample without the metric)
 * are "unknown", not down: every policy keeps using them. Clusters of five nodes: without any sample,
 * and mixed (B and D without one).
 */
class UnknownNodesTest {

    static final List<String> IDS = BuiltinRegistryTest.IDS;
    static final List<String> AGENT_DRIVEN = List.of("f5-dynamic-ratio", "jvm-aware", "jvm-aware-classic",
            "least-loaded", "least-sessions");

    private static final int NODES = 5;

    static TestCluster agentless(String id) {
        TestCluster cluster = PickContractTest.cluster(id);
        for (TestNode node : cluster.nodes) {
            node.sample(null).active(0);
        }
        return cluster;
    }

    static TestCluster mixed(String id) {
        TestCluster cluster = PickContractTest.cluster(id);
        cluster.node('B').sample(null);
        cluster.node('D').sample(null);
        for (TestNode node : cluster.nodes) {
            node.active(0);
        }
        return cluster;
    }

    @ParameterizedTest
    @FieldSource("AGENT_DRIVEN")
    void withoutAnyAgentOneRequestAtATimeGoesRoundTheNodes(String id) {
        TestCluster cluster = agentless(id);
        Picker picker = cluster.picker();
        int[] picks = new int[NODES];
        for (int i = 0; i < 100 * NODES; i++) {
            TestNode node = (TestNode) picker.pick(null);
            node.connectionOpened(); // the request runs...
            picks[node.index()]++;
            node.connectionClosed(); // ...and ends before the next one
        }
        assertArrayEquals(new int[] {100, 100, 100, 100, 100}, picks, id);
    }

    /** Connections stay open, as under a steady load: each unknown node takes about an average share. */
    @ParameterizedTest
    @FieldSource("AGENT_DRIVEN")
    void inAMixedClusterEachUnknownNodeTakesAboutTheShareOfAnAverageNode(String id) {
        TestCluster cluster = mixed(id);
        Picker picker = cluster.picker();
        int total = 100 * NODES;
        int[] picks = TestCluster.counts(TestCluster.sequenceOpening(picker, total), NODES);
        for (char unknown : new char[] {'B', 'D'}) {
            int got = picks[unknown - 'A'];
            assertTrue(got >= total / NODES * 0.8 && got <= total / NODES * 1.2,
                    id + ": unknown node " + unknown + " got " + got + " of " + total + " picks");
        }
    }

    @ParameterizedTest
    @FieldSource("IDS")
    void neverReturnsAnUnusableNodeAndNullOnlyWhenNoneIsUsable(String id) {
        for (TestCluster cluster : List.of(agentless(id), mixed(id))) {
            Picker picker = cluster.picker();
            Random flips = new Random(5);
            for (int round = 0; round < 300; round++) {
                TestNode flipped = cluster.nodes[flips.nextInt(NODES)];
                flipped.healthy(!flipped.healthy());
                boolean anyUsable = false;
                for (TestNode node : cluster.nodes) {
                    anyUsable |= node.usable();
                }
                NodeView avoid = flips.nextBoolean() ? cluster.nodes[flips.nextInt(NODES)] : null;
                NodeView picked = picker.pick(avoid);
                if (!anyUsable) {
                    assertNull(picked, id + " round " + round);
                    continue;
                }
                assertNotNull(picked, id + " round " + round);
                assertTrue(picked.usable(), id + " picked unusable " + picked);
                int usableOthers = 0;
                for (TestNode node : cluster.nodes) {
                    usableOthers += node.usable() && node != avoid ? 1 : 0;
                }
                assertTrue(avoid == null || picked != avoid || usableOthers == 0,
                        id + " returned the avoided " + avoid + " although another node was usable");
            }
        }
    }
}
