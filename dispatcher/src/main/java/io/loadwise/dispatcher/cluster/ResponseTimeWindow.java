package io.loadwise.dispatcher.cluster;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Mean running time of the requests a node completed during the last second (TAPR-08), lock-free.
 *
 * <p>Ten 100 ms buckets; each holds its epoch (bucket number since the clock's origin), a sum of nanos
 * and a count. A writer that finds a bucket from an older epoch resets it first. Races between two
 * writers resetting the same bucket can lose a sample at a bucket boundary, which is harmless for an
 * average.
 */
public final class ResponseTimeWindow {

    private static final int BUCKETS = 10;
    private static final long BUCKET_NANOS = 100_000_000L;

    /** Per bucket: [epoch, sumNanos, count]. */
    private final AtomicLongArray cells = new AtomicLongArray(BUCKETS * 3);

    public void record(long nowNanos, long durationNanos) {
        long epoch = Math.floorDiv(nowNanos, BUCKET_NANOS);
        int base = (int) Math.floorMod(epoch, BUCKETS) * 3;
        long seen = cells.get(base);
        if (seen != epoch && cells.compareAndSet(base, seen, epoch)) {
            cells.set(base + 1, 0);
            cells.set(base + 2, 0);
        }
        cells.addAndGet(base + 1, durationNanos);
        cells.incrementAndGet(base + 2);
    }

    /** Mean in milliseconds over the buckets of the last second, or NaN when there were none. */
    public double meanMillis(long nowNanos) {
        long current = Math.floorDiv(nowNanos, BUCKET_NANOS);
        long sum = 0;
        long count = 0;
        for (int i = 0; i < BUCKETS; i++) {
            int base = i * 3;
            long epoch = cells.get(base);
            if (current - epoch < BUCKETS && epoch <= current) {
                sum += cells.get(base + 1);
                count += cells.get(base + 2);
            }
        }
        return count == 0 ? Double.NaN : sum / 1e6 / count;
    }
}
