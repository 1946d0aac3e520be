package io.loadwise.dispatcher.cluster;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A node's {@code maxConnections}: HTTP requests in flight at most, taken by {@link #tryAdmit()} after a pick and
 * given back by {@link #leave()}. Without a limit (0) nothing is counted and every request is admitted.
 */
final class Admissions {

    /** Requests in flight at most; 0: no limit, and {@link #admitted} stays 0. */
    private final int limit;
    /** Requests admitted and not yet ended, counted only when {@link #limit} is set. */
    private final AtomicInteger admitted = new AtomicInteger();

    Admissions(int limit) {
        this.limit = limit;
    }

    /** Below the limit (always, without one); read by every pick. */
    boolean admitted() {
        return limit == 0 || admitted.get() < limit;
    }

    int limit() {
        return limit;
    }

    int count() {
        return admitted.get();
    }

    /** Takes a slot, or {@code false} when another event loop took the last one since the pick saw it free. */
    boolean tryAdmit() {
        if (limit == 0) {
            return true;
        }
        int now;
        do {
            now = admitted.get();
            if (now >= limit) {
                return false;
            }
        } while (!admitted.compareAndSet(now, now + 1));
        return true;
    }

    /** Gives a slot back; whether one was freed (there is a limit). */
    boolean leave() {
        if (limit == 0) {
            return false;
        }
        admitted.decrementAndGet();
        return true;
    }
}
