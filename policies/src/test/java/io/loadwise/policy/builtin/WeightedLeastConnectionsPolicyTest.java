package io.loadwise.policy.builtin;

import static io.loadwise.policy.builtin.TestCluster.sequenceOpening;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.loadwise.policy.Picker;
import org.junit.jupiter.api.Test;

class WeightedLeastConnectionsPolicyTest {

    @Test
    void connectionsFillUpInProportionToWeightFromTheFirstOne() {
        TestCluster cluster = TestCluster.weighted("weighted-least-connections", 3, 1);
        String picks = sequenceOpening(cluster.picker(), 8);
        // Keys (active+1)/weight: A 1/3 < B 1, A 2/3 < B 1, A 1 = B 1 tie (1st tie: A), A 4/3 > B 1,
        // A 4/3 < B 2, A 5/3 < B 2, A 2 = B 2 tie (2nd tie: B), A 2 < B 3.
        assertEquals("AAABAABA", picks);
        assertEquals(6, cluster.node('A').activeConnections());
        assertEquals(2, cluster.node('B').activeConnections());
    }

    @Test
    void comparesActivePerWeightExactly() {
        TestCluster cluster = TestCluster.weighted("weighted-least-connections", 2, 1, 3);
        cluster.node('A').active(3); // 4/2 = 2
        cluster.node('B').active(1); // 2/1 = 2
        cluster.node('C').active(5); // 6/3 = 2
        Picker picker = cluster.picker();
        assertEquals("ABC", TestCluster.sequence(picker, 3), "an exact three-way tie rotates");
        cluster.node('C').active(4); // 5/3 < 2
        assertSame(cluster.node('C'), picker.pick(null));
    }

    @Test
    void avoidIsTheLastResort() {
        TestCluster cluster = TestCluster.weighted("weighted-least-connections", 10, 1);
        cluster.node('B').active(50);
        Picker picker = cluster.picker();
        assertSame(cluster.node('B'), picker.pick(cluster.node('A')));
        cluster.node('B').healthy(false);
        assertSame(cluster.node('A'), picker.pick(cluster.node('A')));
    }
}
