package io.loadwise.policy.builtin;

import static io.loadwise.policy.builtin.TestCluster.sequence;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyOptions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JvmAwarePolicyTest {

    private static final JvmAwareLoad DEFAULTS = JvmAwareLoad.from(PolicyOptions.EMPTY);

    private static AgentSample jvm(double cpu, double iowait, double queue, double threads, double jdbc, double heap) {
        return TestNode.metricsSample("OS_CPU_USED%", cpu, "OS_CPU_IOWAIT%", iowait, "AMX_CONNS_Q_USED%", queue,
                "AMX_CONNS_Q_THRBSY%", threads, "AMX_JDBC_ACTC%", jdbc, "JVM_HEAP_USED%", heap);
    }

    @Test
    void loadIsTheMeanOfTheSixMetrics() {
        assertEquals((30 + 6 + 12 + 60 + 24 + 48) / 6.0, DEFAULTS.load(jvm(30, 6, 12, 60, 24, 48)), 1e-9);
    }

    @Test
    void thresholdsTripOnlyAboveNotAt55And85() {
        assertEquals((10 + 55 + 85) / 6.0, DEFAULTS.load(jvm(10, 0, 55, 0, 0, 85)), 1e-9);
        assertEquals(100, DEFAULTS.load(jvm(10, 0, 55.01, 0, 0, 50)));
        assertEquals(100, DEFAULTS.load(jvm(10, 0, 20, 0, 0, 85.01)));
    }

    @Test
    void thresholdsAreOptions() {
        JvmAwareLoad relaxed = JvmAwareLoad.from(PolicyOptions.of(Map.of("queueThreshold", 60, "heapThreshold", 90)));
        assertEquals((58 + 88) / 6.0, relaxed.load(jvm(0, 0, 58, 0, 0, 88)), 1e-9);
        assertEquals(100, relaxed.load(jvm(0, 0, 61, 0, 0, 88)));
        List<String> errors = new JvmAwarePolicy().validate(PolicyOptions.of(Map.of("heapThreshold", 101, "queue", 1)));
        assertEquals(List.of("policyOptions.queue: unknown option, known: queueThreshold, heapThreshold,"
                + " gcTimeThreshold, oldGenThreshold", "policyOptions.heapThreshold: 101.0 out of range 0.0..100.0"), errors);
        errors = new JvmAwarePolicy().validate(PolicyOptions.of(Map.of("gcTimeThreshold", -1, "oldGenThreshold", 100.5)));
        assertEquals(List.of("policyOptions.gcTimeThreshold: -1.0 out of range 0.0..100.0",
                "policyOptions.oldGenThreshold: 100.5 out of range 0.0..100.0"), errors);
        assertEquals(List.of("policyOptions.gcTimeThreshold: unknown option, known: queueThreshold, heapThreshold"),
                new JvmAwareClassicPolicy().validate(PolicyOptions.of(Map.of("gcTimeThreshold", 20))),
                "the seed's policy keeps the seed's two thresholds");
    }

    /**
     * With the GC thresholds set, a node whose JVM collects 40 % of the time, or whose old generation stays 95 %
     * full, is held; its queue is empty. By default only the second is (the heap threshold, 85, reads the old
     * generation after collection where it is reported; gcTimeThreshold is off). With all three off, neither is.
     */
    @Test
    void aNodeThatCollectsMostOfTheTimeOrStaysFullAfterCollectionsIsHeldAsSaturated() {
        for (String metric : List.of("JVM_GC_TIME%", "JVM_OLD_AFTER_GC%")) {
            for (String id : List.of("jvm-aware", "adaptive")) {
                TestCluster cluster = TestCluster.of(id, 3).options(Map.of("gcTimeThreshold", 25, "oldGenThreshold", 90));
                cluster.node('A').metrics("OS_CPU_USED%", 20, metric, metric.equals("JVM_GC_TIME%") ? 40 : 95).active(2);
                cluster.node('B').metrics("OS_CPU_USED%", 40, metric, 5).active(2);
                cluster.node('C').metrics("OS_CPU_USED%", 40, metric, 5).active(2);
                io.loadwise.policy.Picker picker = cluster.picker();
                int[] picks = new int[3];
                for (int i = 0; i < 30; i++) {
                    io.loadwise.policy.NodeView node = picker.pick(null);
                    picks[node.index()]++;
                    ((TestNode) node).connectionOpened();
                }
                assertEquals(0, picks[0], id + ", " + metric + ": A is held at the 2 it had");
                cluster.node('A').metrics("OS_CPU_USED%", 20, metric, 3);
                for (int reading = 0; reading < ReadingFilter.READINGS_TO_EXCLUDE; reading++) {
                    cluster.node('A').metrics("OS_CPU_USED%", 20, metric, 3);
                    cluster.node('B').resend();
                    cluster.node('C').resend();
                    picker = cluster.rebuild(picker);
                }
                assertTrue(picker.pick(null) == cluster.node('A'), id + ", " + metric + ": A is back once its JVM is");

                int takenByDefault = picksOfATroubledJvm(TestCluster.of(id, 3), metric);
                if (metric.equals("JVM_OLD_AFTER_GC%")) {
                    assertEquals(0, takenByDefault, id + ": an old generation 95 % full after GC is held by default");
                } else {
                    assertTrue(takenByDefault > 0, id + ": gcTimeThreshold is off by default");
                }

                int taken = picksOfATroubledJvm(TestCluster.of(id, 3)
                        .options(Map.of("gcTimeThreshold", 100, "oldGenThreshold", 100, "heapThreshold", 100)), metric);
                assertTrue(taken > 0, id + ", " + metric + ": with the thresholds off the GC figures hold no node");
            }
        }
    }

    /**
     * Of 30 connections opened in turn, how many went to A, whose JVM collects 40 % of the time or whose old
     * generation stays 95 % full ({@code metric}); B and C read 5; each has 2 in flight.
     */
    private static int picksOfATroubledJvm(TestCluster cluster, String metric) {
        cluster.node('A').metrics("OS_CPU_USED%", 20, metric, metric.equals("JVM_GC_TIME%") ? 40 : 95).active(2);
        cluster.node('B').metrics("OS_CPU_USED%", 40, metric, 5).active(2);
        cluster.node('C').metrics("OS_CPU_USED%", 40, metric, 5).active(2);
        io.loadwise.policy.Picker picker = cluster.picker();
        int taken = 0;
        for (int i = 0; i < 30; i++) {
            io.loadwise.policy.NodeView node = picker.pick(null);
            taken += node == cluster.node('A') ? 1 : 0;
            ((TestNode) node).connectionOpened();
        }
        return taken;
    }

    /**
     * A node over a GC threshold takes no new work at all while the others have room, even once the work it had at
     * the sample has finished (one held at its sampled work would take it back up to that); when the others are at
     * their limits too, a request still finds a node.
     */
    @Test
    void aNodeOverAGcThresholdIsAvoidedWhileTheOthersHaveRoomButNeverRefusedFor() {
        for (String id : List.of("jvm-aware", "adaptive")) {
            TestCluster cluster = TestCluster.of(id, 3).options(Map.of("gcTimeThreshold", 25));
            cluster.node('A').metrics("OS_CPU_USED%", 20, "JVM_GC_TIME%", 50).active(3);
            cluster.node('B').metrics("OS_CPU_USED%", 40, "JVM_GC_TIME%", 5).active(2);
            cluster.node('C').metrics("OS_CPU_USED%", 40, "JVM_GC_TIME%", 5).active(2);
            io.loadwise.policy.Picker picker = cluster.picker();
            cluster.node('A').active(0); // its 3 requests at the sample have finished
            int taken = 0;
            for (int i = 0; i < 30; i++) {
                io.loadwise.policy.NodeView node = picker.pick(null);
                taken += node == cluster.node('A') ? 1 : 0;
                ((TestNode) node).connectionOpened();
            }
            assertEquals(0, taken, id + ": A collects half its time and gets none of 30, though its 3 have finished");

            TestCluster full = TestCluster.of(id, 3).options(Map.of("gcTimeThreshold", 25));
            full.node('A').metrics("OS_CPU_USED%", 20, "JVM_GC_TIME%", 50).active(0);
            full.node('B').metrics("AMX_CONNS_Q_USED%", 90, "JVM_GC_TIME%", 5).active(4); // saturated by their queues,
            full.node('C').metrics("AMX_CONNS_Q_USED%", 90, "JVM_GC_TIME%", 5).active(4); // held at the 4 they have
            assertTrue(full.picker().pick(null) != null, id + ": every node at its limit: one still takes it, none refused");
        }
    }

    /** With gcTimeThreshold off, a node collecting 75 % of the time counts its connections 4 times; 2-5 % changes nothing. */
    @Test
    void aNodeCollectingMostOfTheTimeTakesItsShareOfConnectionsNotAnEqualOne() {
        TestCluster cluster = TestCluster.of("jvm-aware", 3).options(Map.of("gcTimeThreshold", 100));
        cluster.node('A').metrics("OS_CPU_USED%", 40, "JVM_GC_TIME%", 2);
        cluster.node('B').metrics("OS_CPU_USED%", 40, "JVM_GC_TIME%", 5);
        cluster.node('C').metrics("OS_CPU_USED%", 40, "JVM_GC_TIME%", 75);
        int[] picks = TestCluster.counts(TestCluster.sequenceOpening(cluster.picker(), 225), 3);
        assertEquals(25, picks[2], 2, "headroom 60 x 0.25 against 60 x 0.95-0.98: " + java.util.Arrays.toString(picks));
        assertEquals(picks[0], picks[1], 4, java.util.Arrays.toString(picks));
    }

    @Test
    void missingMetricsAreLeftOutOfTheMeanNotCountedAsZero() {
        AgentSample noJdbc = TestNode.metricsSample("OS_CPU_USED%", 40, "OS_CPU_IOWAIT%", 10, "AMX_CONNS_Q_USED%", 20,
                "AMX_CONNS_Q_THRBSY%", 50, "JVM_HEAP_USED%", 30);
        assertEquals(30.0, DEFAULTS.load(noJdbc), 1e-9);
        assertEquals(90.0, DEFAULTS.load(TestNode.metricsSample("OS_CPU_USED%", 90)), 1e-9, "no queue or heap: cannot trip");
        assertTrue(Double.isNaN(DEFAULTS.load(TestNode.metricsSample("OS_MEM_USED%", 90))));
        assertTrue(Double.isNaN(DEFAULTS.load(null)));
    }

    @Test
    void picksLeastLoadAndSkipsSaturatedNodesEvenAsLastResort() {
        TestCluster cluster = TestCluster.of("jvm-aware", 3);
        cluster.node('A').sample(jvm(50, 5, 10, 40, 20, 60));
        cluster.node('B').sample(jvm(10, 1, 56, 5, 5, 20)); // lowest mean, but queue above 55
        cluster.node('C').sample(jvm(30, 5, 10, 20, 20, 40));
        Picker picker = cluster.picker();
        assertEquals("CCC", sequence(picker, 3));
        assertSame(cluster.node('A'), picker.pick(cluster.node('C')));
        cluster.node('A').healthy(false);
        assertSame(cluster.node('B'), picker.pick(cluster.node('C')),
                "only saturated B besides the avoided C: B (it queues the request; C just failed it)");
        cluster.node('C').enabled(false);
        assertSame(cluster.node('B'), picker.pick(null), "every usable node saturated: the least of them, not null");
    }

    @Test
    void equalLoadsRotate() {
        TestCluster cluster = TestCluster.of("jvm-aware", 2);
        cluster.node('A').sample(jvm(10, 10, 10, 10, 10, 10));
        cluster.node('B').sample(jvm(20, 0, 10, 10, 10, 10));
        assertEquals("ABAB", sequence(cluster.picker(), 4));
    }

    @Test
    void betweenSamplesConnectionsSpreadInProportionToHeadroom() {
        TestCluster cluster = TestCluster.of("jvm-aware", 2);
        cluster.node('A').sample(jvm(20, 20, 20, 20, 20, 20)); // load 20: headroom 80
        cluster.node('B').sample(jvm(60, 60, 50, 60, 70, 60)); // load 60 (queue under 55): headroom 40
        Picker picker = cluster.picker();
        // no new sample comes: each pick opens a connection, as the dispatcher's counters would show
        int[] picks = new int[2];
        for (int i = 0; i < 30; i++) {
            TestNode node = (TestNode) picker.pick(null);
            picks[node.index()]++;
            node.active(node.activeConnections() + 1);
        }
        assertEquals(20, picks[0], "2:1 headroom, 2:1 connections rather than all to the least loaded");
        assertEquals(10, picks[1]);
    }

    @Test
    void everyNodeOverTheQueueThresholdStillTakesConnectionsInProportionToItsSlots() {
        TestCluster cluster = TestCluster.of("jvm-aware", 3);
        // 60 clients: A and B hold 20 on 12 workers + 12 queue (queue 67 %), C 18 on 6 + 12 (queue full)
        cluster.node('A').sample(jvm(100, 0, 67, 100, 60, 60)).active(20);
        cluster.node('B').sample(jvm(100, 0, 67, 100, 60, 60)).active(20);
        cluster.node('C').sample(jvm(100, 0, 100, 100, 60, 60)).active(18);
        Picker picker = cluster.picker();
        int[] picks = TestCluster.counts(TestCluster.sequenceOpening(picker, 10), 3);
        assertEquals(10, picks[0] + picks[1] + picks[2], "all saturated: never no node");
        assertTrue(picks[2] <= 2, "C, with the fewest slots, takes the smallest share: " + picks[2]);
    }

    @Test
    void aSaturatedNodeTakesBackWhatFinishedButNoMoreSoTheOthersAreNotHerded() {
        TestCluster cluster = TestCluster.of("jvm-aware", 2);
        cluster.node('A').sample(jvm(30, 5, 10, 20, 20, 40)).active(10);
        cluster.node('B').sample(jvm(10, 1, 56, 5, 5, 20)).active(10); // queue over 55: held at 10
        Picker picker = cluster.picker();
        assertEquals("AAA", sequence(picker, 3));
        cluster.node('A').active(60); // more than 4 times B's connections: headroom counts at most 4:1
        cluster.node('B').active(9); // one of B's connections closed
        assertEquals("B", TestCluster.sequenceOpening(picker, 1), "back to the 10 it was saturated at");
        assertEquals("AAA", TestCluster.sequenceOpening(picker, 3), "and no further until a sample says so");
    }

    @Test
    void aNodeWithoutMetricsCountsAsAnAverageNode() {
        TestCluster cluster = TestCluster.of("jvm-aware", 3);
        cluster.node('A').sample(jvm(20, 20, 20, 20, 20, 20)); // load 20: headroom 80
        cluster.node('B').sample(jvm(60, 60, 50, 60, 70, 60)); // load 60: headroom 40
        // C has no sample: assumed load 40, the mean of A and B, so headroom 60
        Picker picker = cluster.picker();
        int[] picks = new int[3];
        for (int i = 0; i < 36; i++) {
            TestNode node = (TestNode) picker.pick(null);
            picks[node.index()]++;
            node.active(node.activeConnections() + 1);
        }
        assertArrayEquals(new int[] {16, 8, 12}, picks, "connections in proportion 80:40:60");
    }

    @Test
    void anUnknownNodeIsNeverExcludedAsSaturated() {
        TestCluster cluster = TestCluster.of("jvm-aware", 3);
        cluster.node('A').sample(jvm(10, 0, 56, 0, 0, 20)); // saturated: queue above 55
        cluster.node('B').active(5);
        cluster.node('C').active(1);
        Picker picker = cluster.picker();
        assertEquals("CC", sequence(picker, 2), "unknown nodes by least connections while A is saturated");
        cluster.node('B').active(1);
        assertEquals("BCBC", sequence(picker, 4), "ties rotate");
        cluster.node('B').healthy(false);
        cluster.node('C').healthy(false);
        assertSame(cluster.node('A'), picker.pick(null), "nothing else left: the saturated node, not no node");
    }

    @Test
    void withoutAnyMetricsItIsLeastConnections() {
        TestCluster cluster = TestCluster.of("jvm-aware", 3);
        cluster.node('A').active(4);
        cluster.node('B').active(2);
        cluster.node('C').active(3);
        assertEquals("BBB", sequence(cluster.picker(), 3));
        cluster.node('B').active(3);
        assertEquals("BCBC", sequence(cluster.picker(), 4), "ties rotate");
    }
}
