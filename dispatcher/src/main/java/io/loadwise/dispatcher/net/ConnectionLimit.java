package io.loadwise.dispatcher.net;

import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * A cap on open client connections (HAProxy {@code maxconn}): one per listener that sets
 * {@code maxClientConnections}, and one for the whole dispatcher, shared by all its listeners, L4 and L7.
 * An {@link AcceptGate} takes a slot when it accepts a connection and gives it back when the connection
 * closes. Every listener under the limit is told when it becomes full, so that all of them stop
 * accepting, not just the one that took the last slot, and again when it is no longer full.
 *
 * <p>Thread-safe: slots are taken on the acceptor loop and given back on the worker loops.
 */
public final class ConnectionLimit {

    private final String name;
    private final int max;
    private final AtomicInteger open = new AtomicInteger();
    private final LongAdder rejected = new LongAdder();
    /** Run whenever the limit becomes full or stops being full; each listener then looks again. */
    private final CopyOnWriteArrayList<Runnable> watchers = new CopyOnWriteArrayList<>();

    /**
     * @param name what the limit belongs to, for log lines ({@code "cluster web"}, {@code "dispatcher"})
     * @param max connections held at most; at least 1
     */
    public ConnectionLimit(String name, int max) {
        if (max < 1) {
            throw new IllegalArgumentException(name + ": connection limit must be at least 1, got " + max);
        }
        this.name = name;
        this.max = max;
    }

    /** Takes a slot, or returns {@code false} when all {@link #max()} are held. */
    boolean tryAcquire() {
        for (;;) {
            int n = open.get();
            if (n >= max) {
                return false;
            }
            if (open.compareAndSet(n, n + 1)) {
                if (n + 1 == max) {
                    notifyWatchers();
                }
                return true;
            }
        }
    }

    /** Gives a slot back; any thread. */
    void release() {
        if (open.decrementAndGet() == max - 1) {
            notifyWatchers();
        }
    }

    boolean full() {
        return open.get() >= max;
    }

    /**
     * Runs {@code watcher} each time the limit becomes full or stops being full. It must only hand the
     * work to its own thread: it runs on whichever thread took or gave back the slot. Whoever reads
     * {@link #full()} after the last call sees the current state.
     */
    void watch(Runnable watcher) {
        watchers.addIfAbsent(watcher);
    }

    void unwatch(Runnable watcher) {
        watchers.remove(watcher);
    }

    /** Listeners watching this limit; a closed listener no longer does. */
    int watcherCount() {
        return watchers.size();
    }

    private void notifyWatchers() {
        for (Runnable watcher : watchers) {
            watcher.run();
        }
    }

    /** A connection was closed as soon as it was accepted because this limit was full. */
    void rejected() {
        rejected.increment();
    }

    public String name() {
        return name;
    }

    public int max() {
        return max;
    }

    /** Connections holding a slot now: accepted and not yet closed. */
    public int open() {
        return open.get();
    }

    /** Connections closed at once because this limit was full, since it was created. */
    public long rejectedTotal() {
        return rejected.sum();
    }

    @Override
    public String toString() {
        return name + " " + open.get() + "/" + max;
    }
}
