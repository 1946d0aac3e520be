package io.loadwise.policy.builtin;

/**
 * One agent metric of one node followed across its samples: a local-level Kalman filter (the reading is
 * a level that drifts, seen through noise) whose two variances are estimated from the readings
 * themselves, so that a reading counts in proportion to the information it carries.
 *
 * <p>The model: {@code reading = level + noise}, noise variance R; {@code level' = level + drift},
 * drift variance Q. The differences of consecutive readings then have variance {@code Q + 2R} and
 * lag-one covariance {@code -R} (the noise of one reading enters two differences, with opposite signs),
 * so both are moments of the differences, kept as running means over the last {@link #WINDOW} samples:
 * {@code R = max(0, -cov)}, {@code Q = max(var - 2R, 0)}. The gain {@code K = P / (P + R)} (P the
 * level's variance before the reading) is then 1 for an exact metric, which is read as it is, and
 * falls towards 0 as the noise outweighs the drift, where the level becomes a long average.
 *
 * <p>Why not a fixed time constant: the project's readings range from exact (a simulated queue) to
 * noisy beyond use (real Tomcat's queue metric, up to 75 points between two 100 ms samples of equal
 * nodes); one τ either lags the first or follows the noise of the second. Measured in the simulator
 * (4 nodes 1:1:½:½, ρ 0.8, seed 5, readings with 10 % relative noise): the raw readings put a node's
 * heap over 85 % in 74 of 996 readings and starved a node for 29 seconds; docs/policies.md has the grid.
 *
 * <p>Immutable: one per node and metric per picker build, off the pick path.
 *
 * @param level the filtered reading
 * @param variance the level's variance after the last reading (P)
 * @param last the last raw reading
 * @param lastDiff the last difference of consecutive readings (NaN before the second)
 * @param diffSquare running mean of squared differences
 * @param diffLag running mean of products of consecutive differences
 * @param count readings seen, at most {@link #WINDOW}
 */
record MetricTrack(double level, double variance, double last, double lastDiff, double diffSquare, double diffLag,
        int count) {

    /**
     * Readings over which the two variances are averaged: 50, five seconds of the agent's 100 ms samples
     * or fifty of the simulator's 1 s ones. The lag covariance is a difference of small numbers: over 20
     * readings its estimate of the noise was at times near 0, the gain near 1, and a single noisy reading
     * excluded a node (readings at 72 % with 10 % noise: 5 exclusions in 20,000 readings, 10 at 20 %;
     * over 50 readings none at any noise up to 50 %). The cost: a change in a metric's noise takes
     * seconds to be learnt (AdaptivePolicyTest).
     */
    static final int WINDOW = 50;
    /**
     * Readings before the filter trusts its variances: until then the level is the mean of the
     * readings, since two or three differences say little of their covariance, and one noisy first
     * reading must not decide alone.
     */
    static final int WARM_UP = 4;

    /**
     * The least gain once warm: 0.1, a level never averages over more than about twenty readings. Why a
     * floor: differences say "noise, no drift" after a single jump and fall (100, then 0, 0, ...: the
     * jump's two differences have a covariance of minus its square), and with no drift the gain falls to
     * 0 and the level stays where the jump left it. A slow node whose queue read 100 once in a run with
     * 50 % noise then stayed "saturated" for the rest of it, empty and passed over (four nodes 1:1:½:½,
     * ρ 0.8, grid seed 2: 4,130 ms mean where least connections had 27; at 0.1, 24.8). At 0.1 a level
     * that jumped to 100 is back under 70 four readings after the readings fall. 0.2 did as well there but
     * let the calibrated jdbc cell's small-pool node fill (11 failures in 3 runs; the test allows 10).
     */
    static final double MIN_GAIN = 0.1;
    /** The drift variance, as a share of the noise's, that holds the gain at {@link #MIN_GAIN}: K²/(1-K). */
    static final double MIN_DRIFT_SHARE = MIN_GAIN * MIN_GAIN / (1 - MIN_GAIN);

    /** The track of a first reading: its level is the reading. */
    static MetricTrack first(double reading) {
        return new MetricTrack(reading, 0, reading, Double.NaN, 0, 0, 1);
    }

    /** The track after {@code reading}; a first track when this one has none (NaN level). */
    MetricTrack next(double reading) {
        double diff = reading - last;
        int n = Math.min(WINDOW, count + 1);
        double weight = 1.0 / (n - 1); // n - 1 differences so far, at most WINDOW - 1 averaged
        double square = diffSquare + weight * (diff * diff - diffSquare);
        double lag = Double.isNaN(lastDiff) ? diffLag : diffLag + weight * (diff * lastDiff - diffLag);
        double noise = Math.max(0, -lag);
        double drift = Math.max(MIN_DRIFT_SHARE * noise, square - 2 * noise);
        if (n < WARM_UP) { // the mean of the readings so far: its variance is the noise's over n
            double mean = level + (reading - level) / n;
            return new MetricTrack(mean, noise / n, reading, diff, square, lag, n);
        }
        double prior = variance + drift;
        double gain = prior + noise == 0 ? 1 : prior / (prior + noise);
        double level = this.level + gain * (reading - this.level);
        return new MetricTrack(level, (1 - gain) * prior, reading, diff, square, lag, n);
    }

    /** The noise's standard deviation as estimated, sqrt(R). */
    double noise() {
        return Math.sqrt(Math.max(0, -diffLag));
    }

    /** The level's standard error, sqrt(P). */
    double error() {
        return Math.sqrt(variance);
    }
}
