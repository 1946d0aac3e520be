package io.loadwise.agent.load;

/**
 * The fixed log-linear buckets of the service-time histogram (HdrHistogram's layout with 3 sub-bucket
 * bits): values in microseconds, exact below 8 µs, then 8 buckets per power of two, so any bucket spans
 * at most 12.5 % of its lower bound. {@value #COUNT} buckets cover 0 µs to about 19 hours; longer times
 * land in the last bucket. Pure arithmetic, no allocation: the request path calls {@link #index}.
 */
final class ServiceTimeBuckets {

    private static final int SUB_BITS = 3;
    private static final int SUB_COUNT = 1 << SUB_BITS;
    /** Largest value kept apart: 2^36 - 1 µs. */
    private static final long MAX_MICROS = (1L << 36) - 1;
    /** Number of buckets: the index of {@link #MAX_MICROS} plus one. */
    static final int COUNT = index(MAX_MICROS) + 1;

    private ServiceTimeBuckets() {
    }

    /** The bucket of a service time of {@code micros} (negative counts as 0). */
    static int index(long micros) {
        long v = Math.min(Math.max(micros, 0), MAX_MICROS);
        if (v < SUB_COUNT) {
            return (int) v;
        }
        int shift = 63 - Long.numberOfLeadingZeros(v) - SUB_BITS;
        return SUB_COUNT * (shift + 1) + (int) ((v >>> shift) & (SUB_COUNT - 1));
    }

    /** Smallest value (µs) of bucket {@code index}. */
    static long lowerBound(int index) {
        if (index < SUB_COUNT) {
            return index;
        }
        int shift = index / SUB_COUNT - 1;
        return (long) (SUB_COUNT + index % SUB_COUNT) << shift;
    }

    /** One past the largest value (µs) of bucket {@code index}. */
    static long upperBound(int index) {
        if (index < SUB_COUNT) {
            return index + 1L;
        }
        int shift = index / SUB_COUNT - 1;
        return lowerBound(index) + (1L << shift);
    }
}
