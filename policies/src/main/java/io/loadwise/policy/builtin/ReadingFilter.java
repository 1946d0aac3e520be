package io.loadwise.policy.builtin;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.PolicyMetric;
import java.util.HashMap;
import java.util.Map;

/**
 * The Equation 2 metrics and GC figures of one node filtered across its samples ({@link MetricTrack}, one per metric),
 * and a sample that carries the filtered levels in place of the raw readings, so that Equation 2 and
 * its thresholds ({@link JvmAwareLoad}) read them unchanged. Computed at picker builds, never on a pick.
 */
final class ReadingFilter {

    /**
     * Points below its threshold that a saturated node's filtered metric must fall to before the node
     * counts as unsaturated again: 5, the width of the band in which, with the simulator's readings at
     * 10 % relative noise, consecutive filtered levels of one node differ (a node at the edge would
     * otherwise flip at every sample, held and released in turn).
     */
    static final double HYSTERESIS = 5;
    /**
     * The highest load a node that is not saturated counts with: a filtered mean of metrics cannot
     * reach 100 without a threshold tripping, but a rounding could; 100 means "saturated" to the
     * headroom.
     */
    static final double BELOW_SATURATION = 99.9;

    /**
     * Standard errors by which a filtered level must exceed its threshold for a node to enter
     * saturation: 2, a one-sided 2.3 % chance that noise alone puts a level at the threshold there.
     * An exact metric has no error, so its reading decides as it did before the filter.
     */
    static final double CONFIDENCE = 2;

    /**
     * Readings a metric must have had before it can put a node into saturation: 10, half the noise
     * estimate's window. Fewer readings leave the noise estimate, a covariance of a handful of
     * differences, as likely too small as right, and a level read as exact then excludes on noise:
     * at 4 readings, four equal nodes at ρ 0.95 with 30 % noise and readings 2 s late had two nodes held
     * in the run's sixth second while a third took 312 requests in a second (grid seed 3: 218 ms mean,
     * least connections 57). With the agent's 100 ms samples that is the node's first second.
     */
    static final int READINGS_TO_EXCLUDE = 10;

    /**
     * Readings after which the GC figures ({@code gcTimeThreshold}, {@code oldGenThreshold}) can put a node into
     * saturation, on their filtered level alone, without {@link #CONFIDENCE}'s margin: 3. Until {@link
     * MetricTrack#WARM_UP} the level is the mean of the readings, so three readings averaging over the threshold,
     * the last one over it as well. Why not the 10 of the other metrics: a JVM collecting half its time stops every
     * request it holds for each pause, and with the agent read about once a second while the node serves little, 10
     * readings were the first 13 s of a run, in which a thrashing Tomcat node took 100 of the run's 138 requests
     * over 300 ms (benchmarks/results/2026-11-29-gc-thrash-nice-t20). Why it is safe here: the thresholds are
     * opt-in, a node saturated by them alone is only avoided while the others have room ({@link
     * AdaptiveMemory#gcOnly}), and a healthy JVM's collections average a few per cent; three readings averaging
     * over 25 % need pauses filling most of three sample intervals.
     */
    static final int GC_READINGS_TO_EXCLUDE = 3;

    /**
     * Whether {@code metric}'s last two raw readings are both over {@code threshold}, or its last one for a metric
     * that has shown no noise (an exact reading decides at once, as {@link #CONFIDENCE}'s errors do); false when
     * it is not followed. The heap's second confirmation ({@link AdaptiveMemory#saturatedNow}).
     */
    static boolean lastTwoOver(MetricTrack[] tracks, PolicyMetric metric, double threshold) {
        return lastTwoOver(tracks, metric, threshold, false);
    }

    /** {@link #lastTwoOver(MetricTrack[], PolicyMetric, double)}; {@code always}: both readings even when exact. */
    static boolean lastTwoOver(MetricTrack[] tracks, PolicyMetric metric, double threshold, boolean always) {
        MetricTrack track = track(tracks, metric);
        return track != null && track.last() > threshold
                && (track.noise() == 0 && !always || track.last() - track.lastDiff() > threshold);
    }

    /** Equation 2's metrics and the two GC figures that can saturate a node. */
    private static final PolicyMetric[] FILTERED = filtered();

    private static PolicyMetric[] filtered() {
        PolicyMetric[] mean = JvmAwareLoad.meanOf();
        PolicyMetric[] all = java.util.Arrays.copyOf(mean, mean.length + 2);
        all[mean.length] = PolicyMetric.GC_TIME;
        all[mean.length + 1] = PolicyMetric.OLD_AFTER_GC;
        return all;
    }

    private ReadingFilter() {
    }

    /** The tracks after {@code sample}; null when there is no sample (the next sample starts afresh). */
    static MetricTrack[] next(MetricTrack[] before, AgentSample sample) {
        if (sample == null) {
            return null;
        }
        MetricTrack[] tracks = new MetricTrack[FILTERED.length];
        for (int m = 0; m < FILTERED.length; m++) {
            double reading = sample.value(FILTERED[m]);
            MetricTrack previous = before == null ? null : before[m];
            tracks[m] = Double.isNaN(reading) ? null
                    : previous == null ? MetricTrack.first(reading) : previous.next(reading);
        }
        return tracks;
    }

    /**
     * Whether {@code metric}'s filtered level is over {@code threshold} by {@code errors} of its standard
     * errors (a margin in {@code threshold} lowers the bar); false when the metric is not followed or
     * has fewer than {@link MetricTrack#WARM_UP} readings: a node's first readings cannot say how noisy
     * they are, and one of them, read as it is, excluded two of four nodes in the first second of a
     * run with 30 % noise (their heap read 100 %). Until then the slot estimate still holds a full node.
     */
    static boolean over(MetricTrack[] tracks, PolicyMetric metric, double threshold, double errors) {
        return over(tracks, metric, threshold, errors, READINGS_TO_EXCLUDE);
    }

    /** {@link #over(MetricTrack[], PolicyMetric, double, double)} after at least {@code readings} readings. */
    static boolean over(MetricTrack[] tracks, PolicyMetric metric, double threshold, double errors, int readings) {
        MetricTrack track = track(tracks, metric);
        return track != null && track.count() >= readings && track.level() - errors * track.error() > threshold;
    }

    /** Whether {@code metric} has fewer readings than {@link #READINGS_TO_EXCLUDE} (true when it is not followed). */
    static boolean early(MetricTrack[] tracks, PolicyMetric metric) {
        MetricTrack track = track(tracks, metric);
        return track == null || track.count() < READINGS_TO_EXCLUDE;
    }

    /** {@code metric}'s track; null when there are no tracks or the metric is not followed or not reported. */
    private static MetricTrack track(MetricTrack[] tracks, PolicyMetric metric) {
        if (tracks != null) {
            for (int m = 0; m < FILTERED.length; m++) {
                if (FILTERED[m] == metric) {
                    return tracks[m];
                }
            }
        }
        return null;
    }

    /**
     * The variance of the Equation 2 mean of the filtered levels: the mean of the followed metrics'
     * variances over their count (their errors taken as independent); NaN when none is followed.
     */
    static double loadVariance(MetricTrack[] tracks) {
        if (tracks == null) {
            return Double.NaN;
        }
        double sum = 0;
        int n = 0;
        for (MetricTrack track : tracks) {
            if (track != null) {
                sum += track.variance();
                n++;
            }
        }
        return n == 0 ? Double.NaN : sum / ((double) n * n);
    }

    /** {@code raw} with each filtered metric at its track's level; null for no sample. */
    static AgentSample filtered(AgentSample raw, MetricTrack[] tracks) {
        if (raw == null || tracks == null) {
            return raw;
        }
        Map<String, Double> values = new HashMap<>(raw.metrics());
        for (int m = 0; m < FILTERED.length; m++) {
            if (tracks[m] != null) {
                values.put(FILTERED[m].seedName(), tracks[m].level());
            }
        }
        return new AgentSample(raw.timestampMillis(), raw.source(), values);
    }

    /**
     * Moves each known, unsaturated load towards their mean by the share of their spread that their
     * errors explain (empirical Bayes, as James and Stein): with {@code V} the mean of the loads'
     * variances and {@code S²} their observed spread across nodes, the signal's spread is {@code
     * max(0, S² - V)} and each load keeps {@code 1 - V / (V + signal)} of its distance from the mean.
     * Loads that differ by no more than their noise become equal, and the policy is then least requests
     * (weighted); loads that differ far beyond it are kept as they are. In place; NaN and saturated
     * entries ({@code >= 100}) are left alone and take no part.
     */
    static void shrink(double[] load, double[] variance) {
        double sum = 0;
        double noise = 0;
        int k = 0;
        for (int i = 0; i < load.length; i++) {
            if (usable(load[i], variance[i])) {
                sum += load[i];
                noise += variance[i];
                k++;
            }
        }
        if (k < 2) {
            return;
        }
        double mean = sum / k;
        noise /= k;
        double spread = 0;
        for (int i = 0; i < load.length; i++) {
            if (usable(load[i], variance[i])) {
                spread += (load[i] - mean) * (load[i] - mean);
            }
        }
        spread /= k - 1;
        double signal = Math.max(0, spread - noise);
        double keep = noise + signal == 0 ? 1 : signal / (noise + signal);
        for (int i = 0; i < load.length; i++) {
            if (usable(load[i], variance[i])) {
                load[i] = mean + keep * (load[i] - mean);
            }
        }
    }

    private static boolean usable(double load, double variance) {
        return !Double.isNaN(load) && load < JvmAwareLoad.SATURATED && !Double.isNaN(variance);
    }
}
