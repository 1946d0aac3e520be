package io.loadwise.policy.builtin;

import static io.loadwise.policy.builtin.TestCluster.sequence;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.loadwise.policy.Picker;
import org.junit.jupiter.api.Test;

class LeastLoadedPolicyTest {

    private static final String CPU = "OS_CPU_USED%";

    @Test
    void picksLowestCpuUtilisation() {
        TestCluster cluster = TestCluster.of("least-loaded", 3);
        cluster.node('A').metrics(CPU, 45.5);
        cluster.node('B').metrics(CPU, 80);
        cluster.node('C').metrics(CPU, 12.25);
        assertEquals("CCC", sequence(cluster.picker(), 3));
    }

    @Test
    void equalCpuRotates() {
        TestCluster cluster = TestCluster.of("least-loaded", 3);
        cluster.node('A').metrics(CPU, 20);
        cluster.node('B').metrics(CPU, 20);
        cluster.node('C').metrics(CPU, 20);
        assertEquals("ABCABC", sequence(cluster.picker(), 6));
    }

    @Test
    void equalCpuRotatesAmongTheUsableTiedNodesOnly() {
        TestCluster cluster = TestCluster.of("least-loaded", 4);
        cluster.node('A').metrics(CPU, 20);
        cluster.node('B').metrics(CPU, 20).healthy(false);
        cluster.node('C').metrics(CPU, 20);
        cluster.node('D').metrics(CPU, 30);
        Picker picker = cluster.picker();
        assertEquals("ACACAC", sequence(picker, 6));
        cluster.node('A').enabled(false);
        cluster.node('C').enabled(false);
        assertEquals("DD", sequence(picker, 2), "next load group when the whole first one is down");
    }

    @Test
    void anUnknownNodeGetsTheShareOfAnAverageNode() {
        TestCluster cluster = TestCluster.of("least-loaded", 2);
        cluster.node('A').metrics(CPU, 95);
        cluster.node('B').sample(null); // no agent: unknown, not down
        assertEquals("BABABA", sequence(cluster.picker(), 6), "one pick in two, as for any node of two");
    }

    @Test
    void knownNodesFollowTheArgminAndUnknownOnesTakeOnePickInNEach() {
        TestCluster cluster = TestCluster.of("least-loaded", 4);
        cluster.node('A').metrics(CPU, 10);
        cluster.node('B').metrics(CPU, 50);
        cluster.node('D').metrics("OS_MEM_USED%", 50); // a sample without CPU: unknown as well
        assertEquals("CDAACDAA", sequence(cluster.picker(), 8), "C and D rotate, the known share goes to A");
        cluster.node('C').healthy(false);
        assertEquals("DDAADDAA", sequence(cluster.picker(), 8), "D alone takes the unknown turns");
        cluster.node('D').enabled(false);
        assertEquals("AAAA", sequence(cluster.picker(), 4), "no usable unknown node: every turn to the known ones");
        cluster.node('C').healthy(true);
        cluster.node('A').healthy(false);
        cluster.node('B').healthy(false);
        assertEquals("CCCC", sequence(cluster.picker(), 4), "no usable known node: every turn to the unknown ones");
    }

    @Test
    void staleMetricsFallBackToLeastConnections() {
        TestCluster cluster = TestCluster.of("least-loaded", 3);
        cluster.node('A').active(7);
        cluster.node('B').active(2);
        cluster.node('C').active(5);
        assertEquals("BBB", sequence(cluster.picker(), 3));
    }

    @Test
    void avoidIsTheLastResortAcrossKnownAndUnknownNodes() {
        TestCluster cluster = TestCluster.of("least-loaded", 2);
        cluster.node('A').metrics(CPU, 10);
        Picker picker = cluster.picker();
        for (int i = 0; i < 4; i++) {
            assertSame(cluster.node('B'), picker.pick(cluster.node('A')), "unknown node beats the avoided one");
            assertSame(cluster.node('A'), picker.pick(cluster.node('B')), "known node beats the avoided one");
        }
        cluster.node('B').enabled(false);
        assertSame(cluster.node('A'), picker.pick(cluster.node('A')));
        assertSame(cluster.node('A'), picker.pick(cluster.node('A')));
        cluster.node('A').healthy(false);
        assertNull(picker.pick(null));
        assertNull(picker.pick(null));
    }
}
