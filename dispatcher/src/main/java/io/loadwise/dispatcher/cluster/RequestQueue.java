package io.loadwise.dispatcher.cluster;

import io.loadwise.dispatcher.metrics.TrafficCounters;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The cluster's queue of HTTP requests that found every node full (each at its {@code maxConnections}) or
 * none reachable (issue 15, item 4): first in, first out, at most {@code maxQueue} long. Whoever ends a
 * request on a node with a limit calls {@link #slotFreed()}, which wakes the request at the head; the
 * request then picks again on its own event loop. A request woken too late (another took the slot) goes
 * back to the head. Its timeout is kept by the request's own connection timer, not here.
 *
 * <p>Shared by every event loop; lock-free. With {@code queueTimeoutMs} 0 it is {@link #enabled() off}
 * and nothing ever waits.
 */
public final class RequestQueue {

    /** A waiting request. {@link #wake()} is called on any thread and must only hand over to its own loop. */
    public interface Waiter {
        void wake();
    }

    private final ConcurrentLinkedDeque<Waiter> waiting = new ConcurrentLinkedDeque<>();
    private final AtomicInteger length = new AtomicInteger();
    /** Waiters taken off the head and woken whose loop has not run them yet: they are still first in line. */
    private final AtomicInteger woken = new AtomicInteger();
    private final int max;
    private final long timeoutNanos;
    private final TrafficCounters counters;

    /**
     * @param timeoutMs how long a request waits at most; 0: no queue
     * @param max requests waiting at most
     * @param counters the cluster's counters (queue length and time, TD_QUEUE_LENGTH and TD_QUEUE_TIME)
     */
    public RequestQueue(int timeoutMs, int max, TrafficCounters counters) {
        this.timeoutNanos = timeoutMs * 1_000_000L;
        this.max = max;
        this.counters = counters;
    }

    public boolean enabled() {
        return timeoutNanos > 0;
    }

    public long timeoutNanos() {
        return timeoutNanos;
    }

    /** Requests waiting now. */
    public int length() {
        return length.get();
    }

    /** Some request waits, or was woken and has not looked yet: a new one goes behind it (first in, first out). */
    public boolean busy() {
        return length.get() > 0 || woken.get() > 0;
    }

    /** A woken request is about to look; when it finds a slot and others still wait, it wakes the next one. */
    public boolean wakePending() {
        return woken.get() > 0;
    }

    /** Called by a woken waiter first thing on its own loop. */
    public void awake() {
        woken.decrementAndGet();
    }

    /** Queues {@code waiter} at the tail; {@code false} when the queue is full (or off): answer 503 at once. */
    public boolean offer(Waiter waiter) {
        if (!enabled()) {
            return false;
        }
        if (length.incrementAndGet() > max) {
            length.decrementAndGet();
            return false;
        }
        counters.queueLengthChanged(1);
        waiting.addLast(waiter);
        return true;
    }

    /** A woken waiter found no free slot after all: back to the head, ahead of those that came later. */
    public void requeue(Waiter waiter) {
        length.incrementAndGet();
        counters.queueLengthChanged(1);
        waiting.addFirst(waiter);
    }

    /**
     * {@code waiter} waits no more (it got a node, timed out, or its client left): out of the queue if it
     * is still in it, and its {@code waitedNanos} counted (TD_QUEUE_TIME).
     */
    public void left(Waiter waiter, long waitedNanos) {
        if (waiting.remove(waiter)) {
            length.decrementAndGet();
            counters.queueLengthChanged(-1);
        }
        counters.queueWaited(waitedNanos);
    }

    /** A node slot came free (or a node came back): wakes the request at the head, if any. */
    public void slotFreed() {
        Waiter head = waiting.pollFirst();
        if (head != null) {
            length.decrementAndGet();
            woken.incrementAndGet();
            counters.queueLengthChanged(-1);
            head.wake();
        }
    }
}
