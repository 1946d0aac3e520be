package io.loadwise.policy;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Values recorded over the last second, in ten 100 ms buckets: how {@link NodeCounters} keeps its recent
 * response times and its recent failures. Each bucket holds its epoch (bucket number since the clock's
 * origin), a sum and a count; the window at a time is the bucket of that time and the nine before it.
 *
 * <p>Lock-free and allocation-free, like its owner. A writer that finds a bucket from an older epoch resets
 * it first; two writers resetting the same bucket can lose a value at a bucket boundary, which is harmless
 * for an average or a recent count. The caller passes the time, from its own clock.
 *
 * <p>Pickers read the window of every node on every pick (fastest response time compares them), so a read
 * costs a handful of loads, not a scan: the sums of the nine finished buckets are published once per
 * bucket (100 ms) by the first reader that needs them, and each read adds the live bucket to them. A value
 * recorded late into a finished bucket, after that publication (its writer read the clock before the
 * boundary and wrote after it), is missing from reads until the next bucket begins.
 */
final class OneSecondWindow {

    static final int BUCKETS = 10;
    static final long BUCKET_NANOS = 100_000_000L;

    private static final int EPOCH = 0;
    private static final int SUM = 1;
    private static final int COUNT = 2;

    /** Per bucket: [epoch, sum, count]. */
    private final AtomicLongArray cells = new AtomicLongArray(BUCKETS * 3);
    /**
     * [epoch, sum, count]: the sums of the nine buckets before {@code epoch}, which no longer change once
     * {@code epoch} has begun, so a reader adds only the live bucket instead of scanning all ten.
     */
    private final AtomicLongArray settled = new AtomicLongArray(new long[] {Long.MIN_VALUE, 0, 0});
    /** Odd while {@link #settled} is being written (a sequence lock: readers retry or scan, never wait). */
    private final AtomicLong settledVersion = new AtomicLong();

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
        for (int attempt = 0; attempt < 2; attempt++) {
            long version = settledVersion.get();
            if ((version & 1) == 0 && settled.get(EPOCH) == current) {
                long count = settled.get(COUNT);
                if (settledVersion.get() == version) {
                    return count + live(current, COUNT);
                }
            }
            if (!settle(current)) {
                break;
            }
        }
        return scan(current, current, COUNT);
    }

    /** Mean of the values recorded in the second before {@code nowNanos}, or {@link Double#NaN} when none were. */
    double mean(long nowNanos) {
        long current = Math.floorDiv(nowNanos, BUCKET_NANOS);
        for (int attempt = 0; attempt < 2; attempt++) {
            long version = settledVersion.get();
            if ((version & 1) == 0 && settled.get(EPOCH) == current) {
                long sum = settled.get(SUM);
                long count = settled.get(COUNT);
                if (settledVersion.get() == version) {
                    return ratio(sum + live(current, SUM), count + live(current, COUNT));
                }
            }
            if (!settle(current)) {
                break;
            }
        }
        return ratio(scan(current, current, SUM), scan(current, current, COUNT));
    }

    private static double ratio(long sum, long count) {
        return count == 0 ? Double.NaN : (double) sum / count;
    }

    /**
     * Publishes the sums of the nine buckets before {@code current}, unless another thread is publishing
     * (then the caller scans for itself). False when nothing was published.
     */
    private boolean settle(long current) {
        long version = settledVersion.get();
        if ((version & 1) != 0 || !settledVersion.compareAndSet(version, version + 1)) {
            return false;
        }
        settled.set(EPOCH, current);
        settled.set(SUM, scan(current - 1, current, SUM));
        settled.set(COUNT, scan(current - 1, current, COUNT));
        settledVersion.set(version + 2);
        return true;
    }

    /** Field {@code field} (SUM or COUNT) of the bucket of {@code current}, 0 when it holds an older epoch. */
    private long live(long current, int field) {
        int base = (int) Math.floorMod(current, BUCKETS) * 3;
        return cells.get(base) == current ? cells.get(base + field) : 0;
    }

    /** Field {@code field} summed over the buckets of the window ending with {@code current}, up to {@code last}. */
    private long scan(long last, long current, int field) {
        long total = 0;
        for (int i = 0; i < BUCKETS; i++) {
            int base = i * 3;
            long epoch = cells.get(base);
            if (epoch <= last && inWindow(epoch, current)) {
                total += cells.get(base + field);
            }
        }
        return total;
    }

    /** A bucket of {@code epoch} is one of the ten that end with {@code current} (none from the future). */
    private static boolean inWindow(long epoch, long current) {
        return current - epoch < BUCKETS && epoch <= current;
    }
}
