package io.loadwise.policy.builtin;

import static io.loadwise.policy.builtin.TestCluster.sequence;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyInput;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FastestResponseTimePolicyTest {

    @Test
    void picksTheFastestMeasuredNodeReadLive() {
        TestCluster cluster = TestCluster.of("fastest-response-time", 3);
        cluster.node('A').responseTime(50);
        cluster.node('B').responseTime(20.5);
        cluster.node('C').responseTime(31);
        Picker picker = cluster.picker();
        assertEquals("BB", sequence(picker, 2));
        cluster.node('C').responseTime(3);
        assertSame(cluster.node('C'), picker.pick(null));
        assertEquals(Set.of(PolicyInput.RESPONSE_TIMES), cluster.policy.inputs());
    }

    @Test
    void unmeasuredIdleNodesAreTriedFirst() {
        TestCluster cluster = TestCluster.of("fastest-response-time", 3);
        cluster.node('A').responseTime(50);
        cluster.node('B').responseTime(20);
        Picker picker = cluster.picker();
        assertSame(cluster.node('C'), picker.pick(null));
        cluster.node('C').inFlight(1).active(1);
        assertSame(cluster.node('B'), picker.pick(null), "with a request in flight C is no longer untried");
    }

    @Test
    void unmeasuredBusyNodesComeAfterMeasuredOnesByLeastConnections() {
        TestCluster cluster = TestCluster.of("fastest-response-time", 3);
        cluster.node('A').responseTime(900).healthy(false);
        cluster.node('B').inFlight(2).active(2);
        cluster.node('C').inFlight(1).active(1);
        Picker picker = cluster.picker();
        assertSame(cluster.node('C'), picker.pick(null));
        cluster.node('A').healthy(true);
        assertSame(cluster.node('A'), picker.pick(null), "a slow measured node beats ones that finished nothing");
    }

    @Test
    void equalTimesRotateAndAvoidIsTheLastResort() {
        TestCluster cluster = TestCluster.of("fastest-response-time", 2);
        cluster.node('A').responseTime(10);
        cluster.node('B').responseTime(10);
        Picker picker = cluster.picker();
        assertEquals("ABAB", sequence(picker, 4));
        assertEquals("BBB", sequence(picker, 3, cluster.node('A')));
        cluster.node('B').healthy(false);
        assertSame(cluster.node('A'), picker.pick(cluster.node('A')));
    }

    /** Above 64 nodes the rotation among ties re-scans, and must find the same ties as the keyed first pass. */
    @Test
    void inALargeClusterTheFastestWinsAndEqualFastestRotate() {
        TestCluster cluster = TestCluster.of("fastest-response-time", 100);
        for (int i = 0; i < 100; i++) {
            cluster.node((char) ('A' + i)).responseTime(40 + (i * 7) % 50);
        }
        TestNode fastest = cluster.node((char) ('A' + 73));
        fastest.responseTime(5);
        Picker picker = cluster.picker();
        assertEquals(List.of(fastest, fastest), List.of(picker.pick(null), picker.pick(null)));
        TestNode asFast = cluster.node((char) ('A' + 10));
        asFast.responseTime(5);
        List<NodeView> picks = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            picks.add(picker.pick(null));
        }
        assertEquals(2, Collections.frequency(picks, asFast), picks.toString());
        assertEquals(2, Collections.frequency(picks, fastest), picks.toString());
    }
}
