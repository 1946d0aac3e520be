package io.loadwise.policy;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The live counters behind {@link NodeView#activeConnections()}, {@link NodeView#inFlightRequests()} and
 * {@link NodeView#recentResponseTimeMillis()}, kept the same way by every node that counts: the
 * dispatcher's, the simulator's and the JMH benchmark's, so a policy sees the same numbers wherever it runs.
 *
 * <p>Lock-free and allocation-free: written by event loops, read by pickers on the hot path. The two
 * counters are volatile fields updated through {@link VarHandle}s rather than {@code AtomicInteger}s, so that
 * a node holding this object in a final field reaches a counter in as many loads as it did with its own
 * {@code AtomicInteger}. The caller passes the time ({@code nowNanos}, from its own clock: the dispatcher's
 * {@code nanoClock}, the simulator's virtual clock), so each node keeps a single clock and tests control it.
 *
 * <p>Recent response times and recent failures are each a {@link OneSecondWindow} (ten 100 ms buckets).
 *
 * <p>Next to the response-time window, each response also feeds a {@link PeakEwma} of its running time, which the
 * adaptive policy reads.
 */
public final class NodeCounters {

    private static final VarHandle ACTIVE_CONNECTIONS;
    private static final VarHandle IN_FLIGHT_REQUESTS;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            ACTIVE_CONNECTIONS = lookup.findVarHandle(NodeCounters.class, "activeConnections", int.class);
            IN_FLIGHT_REQUESTS = lookup.findVarHandle(NodeCounters.class, "inFlightRequests", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile int activeConnections;
    private volatile int inFlightRequests;
    /** Running times (nanos) of the requests that ended. */
    private final OneSecondWindow responseTimes = new OneSecondWindow();
    private final PeakEwma peakEwma = new PeakEwma();
    /** Failed exchanges, each recorded as 1. */
    private final OneSecondWindow failures = new OneSecondWindow();

    /** See {@link NodeView#activeConnections()}. */
    public int activeConnections() {
        return activeConnections;
    }

    /** Work assigned to the node started (tunnel opened, connection bound or request sent). */
    public void assignmentStarted() {
        ACTIVE_CONNECTIONS.getAndAdd(this, 1);
    }

    public void assignmentEnded() {
        ACTIVE_CONNECTIONS.getAndAdd(this, -1);
    }

    /** See {@link NodeView#inFlightRequests()}. */
    public int inFlightRequests() {
        return inFlightRequests;
    }

    public void requestSent() {
        IN_FLIGHT_REQUESTS.getAndAdd(this, 1);
    }

    /**
     * The response is complete (or the request failed) at {@code nowNanos}; {@code runningNanos} &lt; 0
     * records no time.
     */
    public void requestEnded(long nowNanos, long runningNanos) {
        IN_FLIGHT_REQUESTS.getAndAdd(this, -1);
        if (runningNanos >= 0) {
            responseTimes.add(nowNanos, runningNanos);
            peakEwma.observe(nowNanos, runningNanos);
        }
    }

    /**
     * An exchange with the node failed at {@code nowNanos}: without a response from it (refused, reset, timed
     * out), or with an answer that counts as a failure (see {@link NodeView#recentFailures()}). Counted apart
     * from {@link #requestEnded}, which the caller still calls.
     */
    public void requestFailed(long nowNanos) {
        failures.add(nowNanos, 1);
    }

    /** See {@link NodeView#recentFailures()}: failed exchanges in the second before {@code nowNanos}. */
    public int recentFailures(long nowNanos) {
        return (int) Math.min(Integer.MAX_VALUE, failures.count(nowNanos));
    }

    /** See {@link NodeView#peakEwmaResponseMillis()}: the {@link PeakEwma} of response times, decayed to {@code nowNanos}. */
    public double peakEwmaResponseMillis(long nowNanos) {
        return peakEwma.valueNanos(nowNanos) / 1e6;
    }

    /**
     * Mean running time in milliseconds of the requests that ended in the second before {@code nowNanos}
     * (the current bucket and the nine before it), or {@link Double#NaN} when none did.
     */
    public double recentResponseTimeMillis(long nowNanos) {
        return responseTimes.mean(nowNanos) / 1e6;
    }
}
