package io.loadwise.policy;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Values recorded over the last second, in ten 100 ms buckets: how {@link NodeCounters} keeps its recent
 * response times and its recent failures. Each bucket holds its epoch (bucket number since the clock's
 * origin), a sum and a count; the window at a time is the bucket of that time and the nine before it.
 *
 * <p>Lock-free and allocation-free, like its owner. A writer that finds a bucket from an older epoch resets
 * it first; two writers resetting the same bucket can lose a value at a bucket boundary, which is harmless
 * for an average or a recent count. The caller passes the time, from its own clock.
 */
final class OneSecondWindow {

    static final int BUCKETS = 10;
    static final long BUCKET_NANOS = 100_000_000L;

    /** Per bucket: [epoch, sum, count]. */
    private final AtomicLongArray cells = new AtomicLongArray(BUCKETS * 3);

    /** Records {@code value} at {@code nowNanos}. */
    void add(long nowNanos, long value) {
        long epoch = Math.floorDiv(nowNanos, BUCKET_NANOS);
        int base = (int) Math.floorMod(epoch, BUCKETS) * 3;
        long seen = cells.get(base);
        if (seen != epoch && cells.compareAndSet(base, seen, epoch)) {
            cells.set(base + 1, 0);
            cells.set(base + 2, 0);
        }
        cells.addAndGet(base + 1, value);
        cells.incrementAndGet(base + 2);
    }

    /** How many values were recorded in the second before {@code nowNanos}. */
    long count(long nowNanos) {
        long current = Math.floorDiv(nowNanos, BUCKET_NANOS);
        long count = 0;
        for (int i = 0; i < BUCKETS; i++) {
            int base = i * 3;
            if (inWindow(cells.get(base), current)) {
                count += cells.get(base + 2);
            }
        }
        return count;
    }

    /** Mean of the values recorded in the second before {@code nowNanos}, or {@link Double#NaN} when none were. */
    double mean(long nowNanos) {
        long current = Math.floorDiv(nowNanos, BUCKET_NANOS);
        long sum = 0;
        long count = 0;
        for (int i = 0; i < BUCKETS; i++) {
            int base = i * 3;
            if (inWindow(cells.get(base), current)) {
                sum += cells.get(base + 1);
                count += cells.get(base + 2);
            }
        }
        return count == 0 ? Double.NaN : (double) sum / count;
    }

    /** A bucket of {@code epoch} is one of the ten that end with {@code current} (none from the future). */
    private static boolean inWindow(long epoch, long current) {
        return current - epoch < BUCKETS && epoch <= current;
    }
}
