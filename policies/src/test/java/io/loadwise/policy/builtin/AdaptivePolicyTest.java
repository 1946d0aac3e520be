package io.loadwise.policy.builtin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyOptions;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AdaptivePolicyTest {

    private static final String ID = "adaptive";
    private static final long SECOND = 1_000_000_000L;

    /** A sample of Equation 2 load {@code load}: CPU, I/O wait, threads and JDBC at it, no queue or heap to trip. */
    static AgentSample load(double load) {
        return TestNode.metricsSample("OS_CPU_USED%", load, "OS_CPU_IOWAIT%", load, "AMX_CONNS_Q_THRBSY%", load,
                "AMX_JDBC_ACTC%", load);
    }

    /** Picks {@code count} times, each pick opening a request that stays in flight, as in a burst between samples. */
    private static int[] burst(Picker picker, int count, int nodes) {
        return TestCluster.counts(TestCluster.sequenceOpening(picker, count), nodes);
    }

    @Test
    void aBurstBetweenSamplesSpreadsOverEveryNodeInsteadOfHerding() {
        TestCluster cluster = TestCluster.of(ID, 10);
        for (TestNode node : cluster.nodes) {
            node.sample(load(10 + node.index())).peakEwma(20); // A is the least loaded, by a little
        }
        Picker picker = cluster.picker();
        for (int second = 0; second < 10; second++) {
            int[] picks = burst(picker, 100, 10);
            for (int node = 0; node < 10; node++) {
                assertTrue(picks[node] >= 5 && picks[node] <= 15,
                        "second " + second + ": node " + node + " took " + picks[node] + " of 100");
            }
        }
        TestCluster classic = TestCluster.of("jvm-aware-classic", 10);
        for (TestNode node : classic.nodes) {
            node.sample(load(10 + node.index()));
        }
        assertEquals(100, burst(classic.picker(), 100, 10)[0], "the seed's argmin sends the whole burst to A");
    }

    @Test
    void inFlightWorkSpreadsInProportionToHeadroom() {
        TestCluster cluster = TestCluster.of(ID, 2);
        cluster.node('A').sample(load(40)).peakEwma(20); // headroom 0.6
        cluster.node('B').sample(load(60)).peakEwma(20); // headroom 0.4
        int[] picks = burst(cluster.picker(), 300, 2);
        assertEquals(180, picks[0], 3, "3:2 headroom, 3:2 requests in flight");
    }

    @Test
    void aNodesHeadroomCountsAtMostOneAndAHalfTimesAnothers() {
        TestCluster cluster = TestCluster.of(ID, 2);
        cluster.node('A').sample(load(20)).peakEwma(20); // headroom 0.8
        cluster.node('B').sample(load(60)).peakEwma(20); // headroom 0.4, counted as 0.8 / 1.5
        int[] picks = burst(cluster.picker(), 300, 2);
        assertEquals(180, picks[0], 3, "2:1 headroom, but at most 3:2 requests in flight (HEADROOM_SPREAD)");
    }

    @Test
    void sampleNoiseBetweenEqualNodesIsSmoothedAwayButASustainedLoadShowsWithinSeconds() {
        TestCluster cluster = TestCluster.of(ID, 2);
        Picker picker = cluster.picker();
        long step = SECOND / 10; // the agents' fast sample
        for (int sample = 0; sample < 60; sample++) {
            // two equal nodes whose samples disagree in turn (a queue metric that counts socket events)
            boolean even = sample % 2 == 0;
            cluster.clock.set(sample * step);
            cluster.node('A').sample(load(even ? 20 : 60)).active(0).peakEwma(20);
            cluster.node('B').sample(load(even ? 60 : 20)).active(0).peakEwma(20);
            picker = cluster.rebuild(picker);
            int[] picks = burst(picker, 100, 2);
            if (sample >= 40) { // the first samples count as they are; 4 s later their difference is gone
                assertTrue(picks[0] >= 47 && picks[0] <= 53, "sample " + sample + ": A took " + picks[0]
                        + " of 100 (raw samples: 60 or 40, by the headroom of the moment)");
            }
        }
        // A's load rises to 60 and stays, B's is 50 (headroom 0.5: A's floor, HEADROOM_SPREAD, is 0.33). The
        // filter learned from the swings that these readings are noisy (40 points from one to the next), so it
        // takes a few seconds of steady readings before their difference counts (MetricTrack.WINDOW)
        double[] a = new double[13];
        double[] b = new double[13];
        for (int sample = 60; sample < 180; sample++) {
            cluster.clock.set(sample * step);
            cluster.node('A').sample(load(60));
            cluster.node('B').sample(load(50));
            picker = cluster.rebuild(picker);
            if ((sample + 1) % 10 == 0) {
                AdaptiveCost cost = costOf(cluster, (AdaptivePicker) picker);
                a[(sample - 59) / 10] = cost.headroom(0, sample * step);
                b[(sample - 59) / 10] = cost.headroom(1, sample * step);
            }
        }
        assertTrue(a[12] < a[3] && b[12] > a[12], "A's headroom falls below B's: " + Arrays.toString(a) + " "
                + Arrays.toString(b));
        assertEquals(0.4, a[12], 0.05, "12 s later A's headroom is near 0.4: " + Arrays.toString(a));
        assertEquals(0.5, b[12], 0.05, "and B's near 0.5: " + Arrays.toString(b));
        for (int s = 6; s <= 12; s++) {
            assertTrue(a[s] < b[s], "from 6 s on A counts less headroom than B: " + Arrays.toString(a) + " "
                    + Arrays.toString(b));
        }
    }

    @Test
    void latencyOnlyBreaksTiesSoInFlightWorkDecides() {
        TestCluster cluster = TestCluster.of(ID, 2);
        cluster.node('A').sample(load(30)).peakEwma(10);
        cluster.node('B').sample(load(30)).peakEwma(30);
        Picker picker = cluster.picker();
        assertEquals("A", TestCluster.sequence(picker, 1), "equal work: the faster node");
        int[] picks = burst(picker, 400, 2);
        assertEquals(200, picks[0], 1, "a third of the latency moves at most one request, not 3:1");
        cluster.node('B').peakEwma(0); // never answered, or decayed after a long silence
        cluster.node('A').active(0);
        cluster.node('B').active(0);
        assertEquals("B", TestCluster.sequence(picker, 1), "counts as a quarter of A's latency on a tie");
    }

    /** All workers busy, empty queue (fill 0.5), everything else at 50: equal headroom, a per-request time measured. */
    private static AgentSample busy() {
        return TestNode.metricsSample("OS_CPU_USED%", 50, "AMX_CONNS_Q_THRBSY%", 100, "AMX_CONNS_Q_USED%", 0,
                "AMX_JDBC_ACTC%", 100);
    }

    @Test
    void aNodeTwiceAsSlowPerRequestInFlightCountsItsWorkFourTimes() {
        // the jdbc scenario: B's pool is half A's, so with half A's requests in flight it answers as slowly
        TestCluster cluster = TestCluster.of(ID, 2);
        cluster.node('A').sample(busy()).inFlight(20).responseTime(400).peakEwma(400);
        cluster.node('B').sample(busy()).inFlight(10).responseTime(400).peakEwma(400);
        int[] picks = burst(cluster.picker(), 300, 2);
        assertEquals(240, picks[0], 2, "slowness (40/20)^2 = 4: 4:1, " + Arrays.toString(picks));
    }

    @Test
    void theSlownessIsCappedAtFour() {
        TestCluster cluster = TestCluster.of(ID, 2);
        cluster.node('A').sample(busy()).inFlight(30).responseTime(300);
        cluster.node('B').sample(busy()).inFlight(10).responseTime(300); // 3 times slower: 9, capped at 4
        int[] picks = burst(cluster.picker(), 300, 2);
        assertEquals(240, picks[0], 2, Arrays.toString(picks));
    }

    @Test
    void noSlownessWhileTheWorkersAreNotAllBusyOrNothingWasMeasured() {
        // below full, response time is service time whatever the load: the ratio would call B slow for having less work
        AgentSample half = TestNode.metricsSample("OS_CPU_USED%", 50, "AMX_CONNS_Q_THRBSY%", 50, "AMX_JDBC_ACTC%", 50);
        TestCluster cluster = TestCluster.of(ID, 2);
        cluster.node('A').sample(half).inFlight(20).responseTime(400);
        cluster.node('B').sample(half).inFlight(10).responseTime(400);
        assertEquals(150, burst(cluster.picker(), 300, 2)[0], 1);
        TestCluster unmeasured = TestCluster.of(ID, 2);
        unmeasured.node('A').sample(busy()).inFlight(20).responseTime(400);
        unmeasured.node('B').sample(busy()).inFlight(0).responseTime(Double.NaN); // nothing answered, nothing in flight
        assertEquals(150, burst(unmeasured.picker(), 300, 2)[0], 1);
    }

    @Test
    void theSlownessIsSmoothedAcrossBuildsAndFadesWhenNoBuildComes() {
        TestCluster cluster = TestCluster.of(ID, 2);
        cluster.node('A').sample(busy()).inFlight(20).responseTime(400);
        cluster.node('B').sample(busy()).inFlight(10).responseTime(400);
        Picker picker = cluster.picker();
        // one second later B measures as fast as A: 40 ms per request moves towards 20 by 1 - e^-0.1
        assertEquals(40 + (1 - Math.exp(-0.1)) * (20 - 40),
                AdaptiveMemory.perRequest(AdaptiveMemory.perRequestNow(cluster.node('B').inFlight(20), busy()), 40, SECOND), 1e-9);
        cluster.clock.set(SECOND);
        cluster.node('A').sample(busy());
        cluster.node('B').sample(busy());
        picker = cluster.rebuild(picker);
        // B's mean, lowered by two standard errors of it (the two measurements' variance), over A's (no spread)
        double w = 1 - Math.exp(-0.1);
        double mean = 40 + w * (20 - 40);
        double variance = AdaptiveMemory.perRequestVariance(20, 40, 0, SECOND);
        assertEquals((1 - w) * w * 400, variance, 1e-9);
        double ratio = (mean - AdaptiveCost.SLOWNESS_CONFIDENCE * Math.sqrt(variance * w / (2 - w))) / 20;
        int[] picks = burst(picker, 300, 2);
        assertEquals(300 * ratio * ratio / (1 + ratio * ratio), picks[0], 2, "still about 3:1, not 1:1 at once");
        cluster.node('A').active(0);
        cluster.node('B').active(0);
        cluster.clock.set(4 * SECOND); // no build for 3 s (agents silent): the factor has faded to 1
        assertEquals(150, burst(picker, 300, 2)[0], 1);
    }

    @Test
    void whenEveryNodeIsSaturatedItIsLeastRequestsAmongThemNotNoNode() {
        TestCluster cluster = TestCluster.of(ID, 3);
        for (TestNode node : cluster.nodes) {
            node.metrics("OS_CPU_USED%", 100, "AMX_CONNS_Q_THRBSY%", 100, "AMX_CONNS_Q_USED%", 80).active(20);
        }
        Picker picker = cluster.picker();
        cluster.node('B').active(19); // one of B's requests ended
        assertSame(cluster.node('B'), picker.pick(null), "B is back under the work it was saturated at");
        int[] picks = burst(picker, 30, 3);
        assertTrue(picks[0] >= 9 && picks[0] <= 11 && picks[1] >= 9 && picks[1] <= 11, Arrays.toString(picks));
        assertTrue(picker.pick(cluster.node('C')) != cluster.node('C'), "a saturated node beats the avoided one");
    }

    @Test
    void aSaturatedNodeIsCappedAtTheWorkItHadWhenSampledSoTheOthersAreNotHerded() {
        TestCluster cluster = TestCluster.of(ID, 3);
        cluster.node('A').sample(load(30)).active(10);
        cluster.node('B').metrics("OS_CPU_USED%", 10, "AMX_CONNS_Q_USED%", 76).active(10); // queue over 75
        cluster.node('C').metrics("OS_CPU_USED%", 10, "JVM_HEAP_USED%", 86).active(10); // heap over 85
        Picker picker = cluster.picker();
        assertEquals("AAAAA", TestCluster.sequence(picker, 5), "B and C hold what they had: excluded");
        cluster.node('A').active(60); // A now costs more than B and C at their bounded headroom
        cluster.node('B').active(9);
        cluster.node('C').active(9);
        int[] picks = burst(picker, 3, 3);
        assertEquals(1, picks[1], "B takes one request: back to the 10 it was saturated at, no further");
        assertEquals(1, picks[2], "C likewise");
        picks = burst(picker, 10, 3);
        assertEquals(10, picks[0], "then A again: a stale 'full' never sends B or C past their level");
        cluster.node('A').healthy(false);
        assertTrue(picker.pick(null) != null, "nothing unsaturated left: the cheapest saturated node");
        cluster.clock.set(3 * SECOND); // the samples have faded out: B and C are unknown, not saturated
        assertTrue(picker.pick(null) != null);
    }

    /** A new sample (so a rebuild sees a new one) with the request queue {@code percent} used. */
    private static AgentSample queueUsed(double percent) {
        return TestNode.metricsSample("OS_CPU_USED%", 10, "AMX_CONNS_Q_USED%", percent);
    }

    /** A new sample with the heap {@code percent} used. */
    private static AgentSample heapUsed(double percent) {
        return TestNode.metricsSample("OS_CPU_USED%", 10, "JVM_HEAP_USED%", percent);
    }

    /**
     * Used heap does not fall when a node is given less (it holds garbage until an old collection), so a
     * node held for its heap keeps the work it had when the heap crossed the threshold; a queue does fall,
     * so a node held for its queue is read again at each sample (GlassFish combined: the re-read heap hold
     * took VCN3 from 8 to 0-3 connections a second and the big nodes overflowed).
     */
    @Test
    void aNodeHeldForItsHeapKeepsTheWorkItHadWhenItCrossedButOneHeldForItsQueueIsReadAgain() {
        TestCluster cluster = TestCluster.of(ID, 3);
        cluster.node('A').sample(load(30)).active(10);
        cluster.node('B').sample(queueUsed(80)).active(8); // queue over 75
        cluster.node('C').sample(heapUsed(90)).active(8); // heap over 85
        Picker picker = cluster.picker();
        // a second later both have fewer requests in flight; new samples say the same
        cluster.clock.set(SECOND);
        cluster.node('B').active(3).sample(queueUsed(80));
        cluster.node('C').active(3).sample(heapUsed(90));
        picker = cluster.rebuild(picker);
        cluster.clock.set(2 * SECOND);
        cluster.node('B').sample(queueUsed(80));
        cluster.node('C').sample(heapUsed(90));
        picker = cluster.rebuild(picker);
        cluster.node('A').active(100); // A costs far more than B and C now: only their holds limit them
        int[] picks = burst(picker, 20, 3);
        assertEquals(0, picks[1], "B is held at the 3 it had at its last samples");
        assertEquals(5, picks[2], "C takes 5 more: back to the 8 it had when its heap crossed 85 %");
        assertEquals(15, picks[0]);
        // C's heap falls under the threshold and stays there, then crosses again with 4 in flight: the
        // new crossing counts (ReadingFilter: an exact metric is read as it is), held at the 4 it had then
        long t = 3 * SECOND;
        for (int reading = 0; reading < MetricTrack.WARM_UP; reading++, t += SECOND) {
            cluster.clock.set(t);
            cluster.node('C').active(4).sample(heapUsed(60));
            picker = cluster.rebuild(picker);
        }
        assertFalse(((AdaptivePicker) picker).memory.saturated[2], "a heap that stays at 60 % releases C");
        int readings = 0;
        while (!((AdaptivePicker) picker).memory.saturated[2] && readings < 8) {
            cluster.clock.set(t);
            cluster.node('C').sample(heapUsed(90));
            picker = cluster.rebuild(picker);
            t += SECOND;
            readings++;
        }
        assertEquals(1, readings, "C's readings have shown no noise (steps, no swings): one crossing counts at once");
        cluster.node('C').active(2);
        cluster.node('A').active(1000);
        cluster.node('B').active(1000);
        assertEquals(2, burst(picker, 20, 3)[2], "C is held at the 4 it had when it crossed again");
    }

    @Test
    void aNodeThatLookedUnsaturatedIsHeldAtItsEstimatedSlotsSoTheRestDoesNotHerdOntoIt() {
        TestCluster cluster = TestCluster.of(ID, 3);
        // A: all 12 workers busy, queue half full (under adaptive's 75 %): fill 0.75 at 12 requests, about 16 slots
        cluster.node('A').metrics("OS_CPU_USED%", 100, "AMX_CONNS_Q_THRBSY%", 100, "AMX_CONNS_Q_USED%", 50).active(12);
        // B, C: queue over 75 %: saturated, held at the 20 requests they had
        cluster.node('B').metrics("OS_CPU_USED%", 100, "AMX_CONNS_Q_THRBSY%", 100, "AMX_CONNS_Q_USED%", 80).active(20);
        cluster.node('C').metrics("OS_CPU_USED%", 100, "AMX_CONNS_Q_THRBSY%", 100, "AMX_CONNS_Q_USED%", 80).active(20);
        Picker picker = cluster.picker();
        assertEquals("AA", TestCluster.sequenceOpening(picker, 2), "A up to 16 - 2 slots of margin");
        assertEquals(14, cluster.node('A').activeConnections());
        int[] picks = burst(picker, 12, 3);
        // every node at its limit: in proportion to estimated slots (A 16, B and C 25), not "A takes all"
        assertTrue(picks[0] >= 2 && picks[0] <= 4, "A took " + picks[0] + " of 12: " + Arrays.toString(picks));
        assertEquals(12, picks[0] + picks[1] + picks[2], "never no node");
    }

    @Test
    void nodesAllOverTheirThresholdsShareInProportionToTheirSlotsNotEqually() {
        TestCluster cluster = TestCluster.of(ID, 2);
        // both queues full: A holds 18 requests (6 workers + 12 queued), B 24 (12 + 12); LC would give A 24 of the next 42
        cluster.node('A').metrics("AMX_CONNS_Q_THRBSY%", 100, "AMX_CONNS_Q_USED%", 100).active(18);
        cluster.node('B').metrics("AMX_CONNS_Q_THRBSY%", 100, "AMX_CONNS_Q_USED%", 100).active(24);
        int[] picks = burst(cluster.picker(), 42, 2);
        assertTrue(picks[0] >= 16 && picks[0] <= 20, "18:24 slots take 18:24 of 42, A took " + picks[0]);
    }

    @Test
    void oneGoodLookingStaleSampleTakesAtMostFourTimesItsRivalsWork() {
        TestCluster cluster = TestCluster.of(ID, 10);
        cluster.node('A').sample(load(0)).peakEwma(20); // looks idle
        for (int i = 1; i < 10; i++) {
            cluster.nodes[i].sample(load(99)).peakEwma(20); // look nearly full: headroom 0.01 before the bound
        }
        Picker picker = cluster.picker();
        for (int second = 0; second < 5; second++) { // no new sample while A's in-flight work grows
            int[] picks = burst(picker, 130, 10);
            assertTrue(picks[0] <= 41, "second " + second + ": A took " + picks[0] + " of 130, more than 4:1");
            for (int i = 1; i < 10; i++) {
                assertTrue(picks[i] >= 9, "second " + second + ": node " + i + " took " + picks[i]);
            }
        }
    }

    @Test
    void anAgeingSampleFadesToTheAverageSoThePolicyBecomesLeastRequests() {
        TestCluster cluster = TestCluster.of(ID, 2);
        cluster.node('A').sample(load(60)).peakEwma(20); // headroom 0.4
        cluster.node('B').sample(load(40)).peakEwma(20); // headroom 0.6; average 0.5
        AdaptivePicker picker = (AdaptivePicker) cluster.picker();
        AdaptiveCost cost = costOf(cluster, picker);
        assertEquals(0.4, cost.headroom(0, SECOND), 1e-9, "fresh until agentFadeStartMs (1 s)");
        assertEquals(0.45, cost.headroom(0, 2 * SECOND), 1e-9, "half way to the average at 2 s");
        assertEquals(0.5, cost.headroom(0, 3 * SECOND), 1e-9, "the average from agentFadeEndMs (3 s)");
        cluster.clock.set(3 * SECOND);
        int[] picks = burst(picker, 100, 2);
        assertEquals(50, picks[0], 1, "equal headroom and latency: least requests");
    }

    /** Equation 2 load 40 with the JVM collecting {@code percent} of the last second. */
    private static AgentSample collecting(double percent) {
        return TestNode.metricsSample("OS_CPU_USED%", 40, "AMX_CONNS_Q_THRBSY%", 40, "JVM_GC_TIME%", percent);
    }

    @Test
    void aNodeCollectingThreeQuartersOfTheTimeTakesAQuarterOfTheWorkAndTheRestShareItsCut() {
        TestCluster cluster = TestCluster.of(ID, 3).options(Map.of("gcTimeThreshold", 100)); // the running share alone
        cluster.node('A').sample(collecting(0)).peakEwma(20);
        cluster.node('B').sample(collecting(0)).peakEwma(20);
        cluster.node('C').sample(collecting(75)).peakEwma(20);
        int[] picks = burst(cluster.picker(), 225, 3);
        assertEquals(25, picks[2], 2, "capacities 1 : 1 : 0.25, " + Arrays.toString(picks));
        assertEquals(picks[0], picks[1], 1, Arrays.toString(picks));

        TestCluster healthy = TestCluster.of(ID, 3); // a few per cent each: no node is held back by them
        healthy.node('A').sample(collecting(2)).peakEwma(20);
        healthy.node('B').sample(collecting(5)).peakEwma(20);
        healthy.node('C').sample(collecting(3)).peakEwma(20);
        int[] even = burst(healthy.picker(), 300, 3);
        for (int node = 0; node < 3; node++) {
            assertEquals(100, even[node], 3, Arrays.toString(even));
        }
    }

    @Test
    void aNodeInGcCountsAtMostTenTimesItsWorkAndWithoutTheReadingNotAtAll() {
        assertEquals(AdaptiveCost.MIN_RUNNING, AdaptiveCost.running(collecting(100)), 1e-12);
        assertEquals(AdaptiveCost.MIN_RUNNING, AdaptiveCost.running(collecting(97)), 1e-12);
        assertEquals(0.6, AdaptiveCost.running(collecting(40)), 1e-12);
        assertEquals(1, AdaptiveCost.running(load(40)), 1e-12, "not reported: absent, never 0 or 100");
        assertEquals(1, AdaptiveCost.running(null), 1e-12);
    }

    @Test
    void aStaleGcReadingFadesSoANodeIsNotHeldBackByOldNews() {
        TestCluster cluster = TestCluster.of(ID, 2);
        cluster.node('A').sample(collecting(60)).peakEwma(20);
        cluster.node('B').sample(collecting(0)).peakEwma(20);
        AdaptivePicker picker = (AdaptivePicker) cluster.picker();
        AdaptiveCost cost = costOf(cluster, picker);
        assertEquals(0.4, cost.running(0, SECOND), 1e-9, "fresh until agentFadeStartMs (1 s)");
        assertEquals(0.7, cost.running(0, 2 * SECOND), 1e-9, "half way to 1 at 2 s");
        assertEquals(1, cost.running(0, 3 * SECOND), 1e-9, "1 from agentFadeEndMs (3 s)");
        cluster.clock.set(3 * SECOND);
        int[] picks = burst(picker, 100, 2);
        assertEquals(50, picks[0], 1, "both readings faded: least requests");
    }

    @Test
    void aRebuildKeepsASampleItsAgeAndANewSampleIsFresh() {
        TestCluster cluster = TestCluster.of(ID, 2);
        cluster.node('A').sample(load(60));
        cluster.node('B').sample(load(40));
        Picker first = cluster.picker();
        cluster.clock.set(3 * SECOND);
        AdaptivePicker same = (AdaptivePicker) cluster.rebuild(first);
        assertEquals(0.5, costOf(cluster, same).headroom(0, 3 * SECOND), 1e-9, "still the sample seen at 0");
        cluster.node('A').sample(load(60));
        AdaptivePicker renewed = (AdaptivePicker) cluster.rebuild(same);
        assertEquals(0.4, costOf(cluster, renewed).headroom(0, 3 * SECOND), 1e-9);
    }

    @Test
    void aNodeThatComesBackRampsUpOverSlowStart() {
        TestCluster cluster = TestCluster.of(ID, 2);
        for (TestNode node : cluster.nodes) {
            node.sample(load(20)).peakEwma(20);
        }
        cluster.node('B').healthy(false);
        Picker before = cluster.picker();
        cluster.node('B').healthy(true);
        AdaptivePicker after = (AdaptivePicker) cluster.rebuild(before); // B is back at 0
        AdaptiveCost cost = costOf(cluster, after);
        assertEquals(1, cost.ramp(0, 0), "A never left");
        assertEquals(0.1, cost.ramp(1, 0), 1e-9);
        assertEquals(0.5, cost.ramp(1, 5 * SECOND), 1e-9);
        assertEquals(1, cost.ramp(1, 10 * SECOND), 1e-9);
        int[] picks = burst(after, 110, 2);
        assertEquals(10, picks[1], 2, "at 10 % of its weight B takes a tenth of A's requests");
        assertEquals(1, costOf(cluster, (AdaptivePicker) cluster.rebuild(cluster.picker())).ramp(1, 0),
                "a cluster that starts with the policy does not ramp");
    }

    /** The shared contract suites use five nodes, which are compared in full; this covers the two-choice path. */
    @Test
    void twoChoicesInALargeClusterKeepThePickContract() {
        TestCluster cluster = TestCluster.of(ID, 12);
        for (TestNode node : cluster.nodes) {
            node.sample(load(5 * node.index())).peakEwma(10 + node.index()).active(node.index() % 4);
        }
        cluster.node('C').metrics("JVM_HEAP_USED%", 90); // saturated
        Picker picker = cluster.picker();
        java.util.Random flips = new java.util.Random(7);
        for (int round = 0; round < 2_000; round++) {
            TestNode flipped = cluster.nodes[flips.nextInt(12)];
            flipped.healthy(!flipped.healthy());
            TestNode avoid = flips.nextBoolean() ? cluster.nodes[flips.nextInt(12)] : null;
            int others = 0;
            for (TestNode node : cluster.nodes) {
                others += node.usable() && node != avoid && node.index() != 2 ? 1 : 0;
            }
            io.loadwise.policy.NodeView picked = picker.pick(avoid);
            if (others > 0) {
                assertTrue(picked != null && picked.usable() && picked != avoid && picked.index() != 2,
                        "round " + round + ": " + picked);
            } else {
                assertTrue(picked == null || picked == avoid, "round " + round + ": " + picked);
            }
        }
    }

    @Test
    void inASmallClusterEveryPickComparesAllNodes() {
        TestCluster cluster = TestCluster.of(ID, 3);
        cluster.node('A').sample(load(50)).peakEwma(20).active(3);
        cluster.node('B').sample(load(50)).peakEwma(20).active(1);
        cluster.node('C').sample(load(50)).peakEwma(20).active(2);
        assertEquals("BBB", TestCluster.sequence(cluster.picker(), 3), "the cheapest, not the cheaper of two");
    }

    @Test
    void optionsAreValidatedByName() {
        AdaptivePolicy policy = new AdaptivePolicy();
        assertEquals(List.of(), policy.validate(PolicyOptions.of(Map.of("slowStartMs", 0, "heapThreshold", 90))));
        assertEquals(List.of("policyOptions.slow: unknown option, known: queueThreshold, heapThreshold, gcTimeThreshold, oldGenThreshold, slowStartMs,"
                        + " agentFadeStartMs, agentFadeEndMs", "policyOptions.slowStartMs: -1.0 out of range 0.0..3600000.0"),
                policy.validate(PolicyOptions.of(Map.of("slow", 1, "slowStartMs", -1))));
        assertEquals(List.of("policyOptions.agentFadeEndMs: 500.0 must be greater than agentFadeStartMs (1000.0)"),
                policy.validate(PolicyOptions.of(Map.of("agentFadeEndMs", 500))));
    }

    private static AdaptiveCost costOf(TestCluster cluster, AdaptivePicker picker) {
        return new AdaptiveCost(cluster.snapshot, AdaptiveSettings.from(cluster.options), picker.memory);
    }

    @Test
    void aNodeThatRefusesWorkDoesNotLookTheLeastLoaded() {
        // the real sweep's herd (issue 16): every node's workers busy, C refuses beyond its queue, its
        // refused exchanges end in milliseconds, so it holds almost no work in flight
        TestCluster cluster = TestCluster.of(ID, 3);
        for (TestNode node : cluster.nodes) {
            node.sample(load(50)).peakEwma(200);
        }
        cluster.node('A').active(16);
        cluster.node('B').active(16);
        cluster.node('C').active(2).failures(4); // 2 + 1 + 4 x 8 = 35 against A's and B's 26 after the burst
        Picker picker = cluster.picker();
        int[] picks = burst(picker, 20, 3);
        assertEquals(0, picks[2], "C's 4 failures of the last second count as work: " + Arrays.toString(picks));
        cluster.node('C').failures(0);
        assertEquals("C", TestCluster.sequence(picker, 1), "a second without failures: its in-flight count decides");
    }

    @Test
    void failuresOnEveryNodeExcludeNoneTheyCompareAsWork() {
        TestCluster cluster = TestCluster.of(ID, 3);
        for (TestNode node : cluster.nodes) {
            node.sample(load(50)).peakEwma(200).active(5);
        }
        cluster.node('A').failures(100);
        cluster.node('B').failures(50);
        cluster.node('C').failures(80);
        Picker picker = cluster.picker();
        assertEquals("B", TestCluster.sequence(picker, 1), "the fewest failures, and never no node");
        cluster.node('B').active(300); // 301 + 50 x 8 = 701 against C's 6 + 80 x 8 = 646
        assertEquals("C", TestCluster.sequence(picker, 1), "in-flight work plus weighted failures");
    }
}
