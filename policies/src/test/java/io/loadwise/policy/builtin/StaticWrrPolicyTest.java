package io.loadwise.policy.builtin;

import static io.loadwise.policy.builtin.TestCluster.counts;
import static io.loadwise.policy.builtin.TestCluster.sequence;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.Picker;
import org.junit.jupiter.api.Test;

class StaticWrrPolicyTest {

    @Test
    void weights221InterleaveAsTheSmoothCycle() {
        TestCluster cluster = TestCluster.weighted("static-wrr", 2, 2, 1);
        assertEquals("ABCABABCAB", sequence(cluster.picker(), 10));
    }

    @Test
    void everyWindowOfFiveHoldsExactly221AndNoNodeRepeatsBackToBack() {
        TestCluster cluster = TestCluster.weighted("static-wrr", 2, 2, 1);
        String picks = sequence(cluster.picker(), 203);
        for (int start = 0; start + 5 <= picks.length(); start++) {
            assertArrayEquals(new int[] {2, 2, 1}, counts(picks.substring(start, start + 5), 3),
                    "window at " + start + " of " + picks);
        }
        for (int i = 1; i < picks.length(); i++) {
            assertNotEquals(picks.charAt(i - 1), picks.charAt(i), "burst at " + i + " of " + picks);
        }
    }

    @Test
    void survivorsKeepTheirExactRatioWhenANodeIsDown() {
        TestCluster cluster = TestCluster.weighted("static-wrr", 2, 2, 1);
        cluster.node('B').healthy(false);
        assertArrayEquals(new int[] {20, 0, 10}, counts(sequence(cluster.picker(), 30), 3));
    }

    @Test
    void weightsAreReducedByTheirCommonDivisor() {
        TestCluster cluster = TestCluster.weighted("static-wrr", 100, 100, 50);
        WrrPicker picker = (WrrPicker) cluster.picker();
        assertEquals(5, picker.table().length());
        assertEquals("ABCAB", sequence(picker, 5));
    }

    @Test
    void hugeWeightSumsAreScaledDownKeepingTheRatio() {
        TestCluster cluster = TestCluster.weighted("static-wrr", 3_000_000, 1_000_001, 1);
        WrrPicker picker = (WrrPicker) cluster.picker();
        SlotCycle table = picker.table();
        assertTrue(table.length() <= SmoothWrrTable.MAX_SLOTS + 3, "length " + table.length());
        int[] counts = counts(sequence(picker, table.length()), 3);
        assertEquals(3.0, counts[0] / (double) counts[1], 0.01);
        assertEquals(1, counts[2], "the light node keeps one slot");
    }

    @Test
    void cursorCarriesOverARebuild() {
        TestCluster cluster = TestCluster.weighted("static-wrr", 2, 2, 1);
        Picker first = cluster.picker();
        assertEquals("ABC", sequence(first, 3));
        assertEquals("ABABC", sequence(cluster.rebuild(first), 5));
    }

    @Test
    void avoidSkipsItsSlotsAndIsTheLastResort() {
        TestCluster cluster = TestCluster.weighted("static-wrr", 2, 2, 1);
        Picker picker = cluster.picker();
        assertEquals("BCBB", sequence(picker, 4, cluster.node('A')));
        cluster.node('B').enabled(false);
        cluster.node('C').healthy(false);
        assertSame(cluster.node('A'), picker.pick(cluster.node('A')));
        cluster.node('A').healthy(false);
        assertNull(picker.pick(cluster.node('A')));
    }
}
