package io.loadwise.policy.builtin;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.PolicyMetric;

/**
 * A node's JDBC pool waiters ({@link PolicyMetric#AMX_JDBC_WAIT}, threads waiting for a connection) followed
 * across its samples, and what they say of adaptive's slowness factor ({@link AdaptiveCost#slowness}).
 *
 * <p>The slowness factor is the one signal of a bottleneck that is not a worker, and by itself it cannot tell
 * such a bottleneck from chance: with equal nodes one long request makes a node "slower", the factor keeps it
 * from filling, so it is not measured again, and the factor stays until it fades (the robustness grid's
 * equal-speed misses, benchmarks/results/2026-11-28-robustness-grid-10-seeds). Waiters say "the pool is the
 * bottleneck" directly. So, per node:
 * <ul>
 *   <li>its last sample shows waiters beyond their noise: the factor is held at its measured value;</li>
 *   <li>its agent reports the reading and the last sample shows none: the factor fades with τ
 *       {@link #NO_WAIT_TAU_NANOS} from the last build whose sample showed waiters, and a node whose pool never
 *       waited has none (1);</li>
 *   <li>its agent does not report the reading (absent: an older agent, or a pool it cannot read): as before,
 *       τ {@link AdaptiveCost#SLOWNESS_FADE_TAU_NANOS} from its last measurement.</li>
 * </ul>
 * Measured (benchmarks/results/2026-11-29-jdbc-waiters): the robustness grid at 3 seeds meets the aim in 306
 * of 360 cells (255 with the reading absent: the simulated grid nodes have no pool that waits, so they report 0),
 * the calibrated jdbc cell fails 8 times in 3 runs as before. Computed at picker builds, never on a pick.
 */
final class PoolWaiters {

    /**
     * Waiters a node's filtered reading must exceed, by {@link ReadingFilter#CONFIDENCE} standard errors, to
     * count as waiting: half a thread. The reading is a count: an exact reading of one waiter counts, a noisy
     * level that hovers near 0 does not.
     */
    static final double WAITING = 0.5;

    /**
     * τ with which the slowness factor of a node that shows no waiters fades from the last sample that showed
     * some: 5 s. Measured on the calibrated jdbc cell (TestbedSimulationTest, at most 10 failures in 3 runs):
     * 0 (a factor only while the last sample shows waiters) 21 failures, 1 s 8, 5 s 8, 10 s 8, 20 s 8; the
     * grid does not depend on it (its nodes never wait). 5 s rather than 1 s: a real pool's waiters are a gauge
     * read every 100 ms and come and go within a second while the pool is short; 5 s bridges such gaps
     * without keeping a factor whose cause has gone.
     */
    static final double NO_WAIT_TAU_NANOS = 5e9;

    private PoolWaiters() {
    }

    /**
     * The track after {@code sample}: null when the sample lacks the reading (absent, never 0); {@code before}
     * when there is no sample at all (none yet, or expired): a silent agent has not stopped reporting the
     * reading, and a node whose samples arrive late would otherwise switch between the two regimes (the grid's
     * cells with readings 3 s late, where samples expire: 292 cells instead of 306).
     */
    static MetricTrack next(MetricTrack before, AgentSample sample) {
        if (sample == null) {
            return before;
        }
        double reading = sample.value(PolicyMetric.AMX_JDBC_WAIT);
        if (Double.isNaN(reading)) {
            return null;
        }
        return before == null ? MetricTrack.first(reading) : before.next(reading);
    }

    /** Whether the track says the node's pool has waiters beyond its noise. */
    static boolean waiting(MetricTrack track) {
        return track != null && track.level() - ReadingFilter.CONFIDENCE * track.error() > WAITING;
    }

    /**
     * The factor of a node as this build counts it.
     *
     * @param factor      the factor from its last measurement (1..{@link AdaptiveCost#SLOWNESS_CAP})
     * @param reported    whether its agent reports waiters (its last sample carried the reading)
     * @param waitAge     nanoseconds since a build last saw waiters in a sample of it (0: this build; infinite: never)
     * @param measuredAge nanoseconds since the factor was last measured (infinite: never)
     */
    static double fade(double factor, boolean reported, double waitAge, double measuredAge) {
        if (!reported) {
            return 1 + (factor - 1) * Math.exp(-measuredAge / AdaptiveCost.SLOWNESS_FADE_TAU_NANOS);
        }
        return waitAge == 0 ? factor : 1 + (factor - 1) * Math.exp(-waitAge / NO_WAIT_TAU_NANOS);
    }
}
