package io.loadwise.policy.builtin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.Picker;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Adaptive's slowness factor and a node's JDBC pool waiters ({@link PoolWaiters}): held while the node's agent
 * reports waiters, faded within seconds when it reports none, and as before when it does not report the reading.
 */
class AdaptivePoolWaitersTest {

    private static final long SECOND = 1_000_000_000L;

    /** Every worker busy, the pool fully used; {@code waiters} threads waiting for a connection, or none reported (NaN). */
    private static AgentSample busy(double waiters) {
        return Double.isNaN(waiters)
                ? TestNode.metricsSample("OS_CPU_USED%", 50, "AMX_CONNS_Q_THRBSY%", 100, "AMX_CONNS_Q_USED%", 0,
                        "AMX_JDBC_ACTC%", 100)
                : TestNode.metricsSample("OS_CPU_USED%", 50, "AMX_CONNS_Q_THRBSY%", 100, "AMX_CONNS_Q_USED%", 0,
                        "AMX_JDBC_ACTC%", 100, "AMX_JDBC_WAIT", waiters);
    }

    /** Half the workers busy: no node is measured. */
    private static AgentSample half(double waiters) {
        return Double.isNaN(waiters)
                ? TestNode.metricsSample("OS_CPU_USED%", 50, "AMX_CONNS_Q_THRBSY%", 50, "AMX_JDBC_ACTC%", 50)
                : TestNode.metricsSample("OS_CPU_USED%", 50, "AMX_CONNS_Q_THRBSY%", 50, "AMX_JDBC_ACTC%", 50,
                        "AMX_JDBC_WAIT", waiters);
    }

    /**
     * A's share of 300 picks 30 s after B was measured twice as slow per request in flight (factor 4), B's
     * agent reporting {@code waitersLater} at every sample since and B not measured again.
     */
    private static int shareOfAThirtySecondsLater(double waitersFirst, double waitersLater) {
        TestCluster cluster = TestCluster.of("adaptive", 2);
        cluster.node('A').sample(busy(0)).inFlight(20).responseTime(400);
        cluster.node('B').sample(busy(waitersFirst)).inFlight(10).responseTime(400);
        Picker picker = cluster.picker();
        for (int second = 1; second <= 30; second++) {
            cluster.clock.set(second * SECOND);
            cluster.node('A').sample(half(0));
            cluster.node('B').sample(half(waitersLater));
            picker = cluster.rebuild(picker);
        }
        cluster.node('A').active(0);
        cluster.node('B').active(0);
        int[] picks = TestCluster.counts(TestCluster.sequenceOpening(picker, 300), 2);
        return picks[0];
    }

    @Test
    void aNodeWhosePoolHasWaitersKeepsItsSlownessFactor() {
        assertEquals(240, shareOfAThirtySecondsLater(3, 3), 2, "factor 4 held: 4:1");
    }

    @Test
    void aNodeWithoutWaitersLosesItsFactorWithinSeconds() {
        // measured while waiting, then 30 s of samples with no waiter: faded with τ 5 s, about 1:1
        int a = shareOfAThirtySecondsLater(3, 0);
        assertEquals(150, a, 3, "faded: " + a);
        // never waiting: the factor is chance (equal nodes, one long request), and it is gone as fast
        assertEquals(150, shareOfAThirtySecondsLater(0, 0), 3);
    }

    @Test
    void aSlowerNodeGetsAFactorAtOnceOnlyWhereItsPoolWaitsOrItsAgentCannotSay() {
        for (double waiters : new double[] {2, 0, Double.NaN}) {
            TestCluster cluster = TestCluster.of("adaptive", 2);
            cluster.node('A').sample(busy(0)).inFlight(20).responseTime(400);
            cluster.node('B').sample(busy(waiters)).inFlight(10).responseTime(400); // twice as slow per request
            cluster.node('A').active(0);
            cluster.node('B').active(0);
            int a = TestCluster.counts(TestCluster.sequenceOpening(cluster.picker(), 300), 2)[0];
            if (waiters == 0) {
                assertEquals(150, a, 1, "no waiter: a slower time per request is chance, no factor");
            } else {
                assertEquals(240, a, 2, waiters + " waiters: factor 4");
            }
        }
    }

    @Test
    void aHeldFactorFadesOnceTheAgentFallsSilent() {
        TestCluster cluster = TestCluster.of("adaptive", 2);
        cluster.node('A').sample(busy(0)).inFlight(20).responseTime(400);
        cluster.node('B').sample(busy(3)).inFlight(10).responseTime(400);
        Picker picker = cluster.picker();
        cluster.clock.set(30 * SECOND);
        cluster.node('A').sample(half(0));
        cluster.node('B').sample(null); // expired: the last waiters seen are 30 s old
        picker = cluster.rebuild(picker);
        cluster.node('A').active(0);
        cluster.node('B').active(0);
        assertEquals(150, TestCluster.counts(TestCluster.sequenceOpening(picker, 300), 2)[0], 3);
    }

    @Test
    void aNodeWhoseAgentDoesNotReportWaitersFadesAsBefore() {
        // τ 60 s: after 30 s the factor is 1 + 3 e^-0.5
        double factor = 1 + 3 * Math.exp(-0.5);
        int a = shareOfAThirtySecondsLater(Double.NaN, Double.NaN);
        assertEquals(300 * factor / (1 + factor), a, 2, "absent reading: " + a);
    }

    @Test
    void waitersCountOnlyBeyondTheirNoise() {
        MetricTrack exactOne = PoolWaiters.next(null, busy(1));
        assertTrue(PoolWaiters.waiting(exactOne), "one waiter read exactly is a waiter");
        assertFalse(PoolWaiters.waiting(PoolWaiters.next(null, busy(0))));
        assertNull(PoolWaiters.next(null, busy(Double.NaN)), "absent is not 0");
        // a reading that jumps between 0 and 1 at random is noise around a level under one waiter
        MetricTrack noisy = null;
        java.util.Random flips = new java.util.Random(7);
        boolean ever = false;
        for (int i = 0; i < 200; i++) {
            noisy = PoolWaiters.next(noisy, busy(flips.nextInt(4) == 0 ? 1 : 0));
            ever |= i >= MetricTrack.WARM_UP * 5 && PoolWaiters.waiting(noisy);
        }
        assertFalse(ever, "level " + noisy.level() + " error " + noisy.error());
        // a sustained queue of waiters counts whatever its noise
        MetricTrack sustained = null;
        for (int i = 0; i < 50; i++) {
            sustained = PoolWaiters.next(sustained, busy(4 + flips.nextGaussian()));
        }
        assertTrue(PoolWaiters.waiting(sustained), Arrays.toString(new double[] {sustained.level(), sustained.error()}));
    }
}
