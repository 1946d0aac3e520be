package io.loadwise.sim.stats;

/**
 * Records durations in nanoseconds: the exact mean, and percentiles from log-spaced buckets 0.5 % wide
 * (so a percentile is within 0.25 % of the true value). Zero durations, common for waiting times, are
 * counted exactly. Fixed memory however long the run.
 */
public final class LatencyHistogram {

    private static final double LOG_GROWTH = Math.log(1.005);
    private static final int BUCKETS = (int) (Math.log(1e15) / LOG_GROWTH) + 2;

    private final long[] buckets = new long[BUCKETS];
    private long zeros;
    private long count;
    private double sum;

    public void record(long nanos) {
        count++;
        if (nanos <= 0) {
            zeros++;
            return;
        }
        sum += nanos;
        int b = (int) (Math.log(nanos) / LOG_GROWTH);
        buckets[Math.min(b, BUCKETS - 1)]++;
    }

    public long count() {
        return count;
    }

    /** Share of the recorded durations that were above zero; for waiting times, P(wait). NaN when empty. */
    public double fractionAboveZero() {
        return count == 0 ? Double.NaN : (double) (count - zeros) / count;
    }

    /** Mean in milliseconds, NaN when empty. */
    public double meanMillis() {
        return count == 0 ? Double.NaN : sum / count / 1e6;
    }

    /** The {@code q}-quantile (0 < q ≤ 1) in milliseconds, NaN when empty. */
    public double percentileMillis(double q) {
        if (count == 0) {
            return Double.NaN;
        }
        long rank = (long) Math.ceil(q * count);
        if (rank <= zeros) {
            return 0;
        }
        long seen = zeros;
        for (int b = 0; b < BUCKETS; b++) {
            seen += buckets[b];
            if (seen >= rank) {
                return Math.exp((b + 0.5) * LOG_GROWTH) / 1e6;
            }
        }
        return Double.NaN;
    }
}
