package io.loadwise.dispatcher.cluster;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Pinned requests that reached a session-draining node during the last minute: 60 one-second buckets, each
 * stamped with its second. A bucket whose second has passed is reused; two event loops rolling the same bucket
 * at once may lose a count, which a progress figure can afford. No allocation, no lock.
 */
final class PinnedWindow {

    private static final int SECONDS = 60;
    private static final long SECOND_NANOS = 1_000_000_000L;

    private final AtomicLongArray stamps = new AtomicLongArray(SECONDS);
    private final AtomicIntegerArray counts = new AtomicIntegerArray(SECONDS);

    PinnedWindow() {
        for (int i = 0; i < SECONDS; i++) {
            stamps.set(i, Long.MIN_VALUE);
        }
    }

    void record(long nowNanos) {
        long second = Math.floorDiv(nowNanos, SECOND_NANOS);
        int i = (int) Math.floorMod(second, SECONDS);
        long stamp = stamps.get(i);
        if (stamp != second && stamps.compareAndSet(i, stamp, second)) {
            counts.set(i, 0);
        }
        counts.incrementAndGet(i);
    }

    /** Requests recorded in the 60 seconds up to {@code nowNanos} (the current second included). */
    int count(long nowNanos) {
        long second = Math.floorDiv(nowNanos, SECOND_NANOS);
        int sum = 0;
        for (int i = 0; i < SECONDS; i++) {
            long stamp = stamps.get(i);
            if (stamp != Long.MIN_VALUE && second - stamp < SECONDS && stamp <= second) {
                sum += counts.get(i);
            }
        }
        return sum;
    }
}
