package io.loadwise.bench.chaos;

/**
 * Latencies in a fixed number of log-linear buckets (32 per power of two of microseconds, so within about
 * 3 %), whatever the number of requests: the soak keeps one per minute instead of every latency.
 */
final class LatencyHistogram {

    private static final int SUB = 32;
    private static final int SUB_BITS = 5;
    /** Values below 2 × SUB µs have a bucket each; 33 powers of two above that cover any long of µs we see. */
    private static final int BUCKETS = 2 * SUB + 40 * SUB;

    private final long[] counts = new long[BUCKETS];
    private long total;

    /** The bucket of {@code micros}: exact below 64, else 32 buckets per power of two. */
    static int bucket(long micros) {
        long v = Math.max(0, micros);
        if (v < 2 * SUB) {
            return (int) v;
        }
        int msb = 63 - Long.numberOfLeadingZeros(v);
        int shift = msb - SUB_BITS;
        return (int) Math.min(BUCKETS - 1, 2 * SUB + (long) (msb - SUB_BITS - 1) * SUB + ((v >> shift) - SUB));
    }

    /** The largest value of a bucket (its upper bound, in µs). */
    static long upper(int bucket) {
        if (bucket < 2 * SUB) {
            return bucket;
        }
        int k = bucket - 2 * SUB;
        int msb = k / SUB + SUB_BITS + 1;
        int shift = msb - SUB_BITS;
        return ((long) (SUB + k % SUB + 1) << shift) - 1;
    }

    void record(long nanos) {
        counts[bucket(nanos / 1_000)]++;
        total++;
    }

    long count() {
        return total;
    }

    /** The {@code q} quantile (0-1) in ms: the upper bound of its bucket; NaN when empty. */
    double quantileMillis(double q) {
        if (total == 0) {
            return Double.NaN;
        }
        long rank = Math.max(1, (long) Math.ceil(q * total));
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return upper(i) / 1_000.0;
            }
        }
        return upper(BUCKETS - 1) / 1_000.0;
    }
}
