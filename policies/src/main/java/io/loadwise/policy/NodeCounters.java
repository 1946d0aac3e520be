package io.loadwise.policy;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLongArray;

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
 * <p>The response-time window has ten 100 ms buckets; each holds its epoch (bucket number since the clock's
 * origin), a sum of nanos and a count. A writer that finds a bucket from an older epoch resets it first.
 * Two writers resetting the same bucket can lose a sample at a bucket boundary, which is harmless for an
 * average.
 *
 * <p>Next to the window, each response also feeds a {@link PeakEwma} of its running time, which the
 * adaptive policy reads.
 */
public final class NodeCounters {

    private static final int BUCKETS = 10;
    private static final long BUCKET_NANOS = 100_000_000L;

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
    /** Per bucket: [epoch, sumNanos, count]. */
    private final AtomicLongArray responseCells = new AtomicLongArray(BUCKETS * 3);
    private final PeakEwma peakEwma = new PeakEwma();
    /** Per bucket: [epoch, failed exchanges]; the same ten 100 ms buckets as the response times. */
    private final AtomicLongArray failureCells = new AtomicLongArray(BUCKETS * 2);

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
            recordResponse(nowNanos, runningNanos);
            peakEwma.observe(nowNanos, runningNanos);
        }
    }

    /**
     * An exchange with the node failed at {@code nowNanos} without a response from it (refused, reset,
     * timed out: the dispatcher answered the client with an error of its own). Counted apart from
     * {@link #requestEnded}, which the caller still calls: see {@link NodeView#recentFailures()}.
     */
    public void requestFailed(long nowNanos) {
        long epoch = Math.floorDiv(nowNanos, BUCKET_NANOS);
        int base = (int) Math.floorMod(epoch, BUCKETS) * 2;
        long seen = failureCells.get(base);
        if (seen != epoch && failureCells.compareAndSet(base, seen, epoch)) {
            failureCells.set(base + 1, 0);
        }
        failureCells.incrementAndGet(base + 1);
    }

    /** See {@link NodeView#recentFailures()}: failed exchanges in the second before {@code nowNanos}. */
    public int recentFailures(long nowNanos) {
        long current = Math.floorDiv(nowNanos, BUCKET_NANOS);
        long count = 0;
        for (int i = 0; i < BUCKETS; i++) {
            int base = i * 2;
            long epoch = failureCells.get(base);
            if (current - epoch < BUCKETS && epoch <= current) {
                count += failureCells.get(base + 1);
            }
        }
        return (int) Math.min(Integer.MAX_VALUE, count);
    }

    /** See {@link NodeView#peakEwmaResponseMillis()}: the {@link PeakEwma} of response times, decayed to {@code nowNanos}. */
    public double peakEwmaResponseMillis(long nowNanos) {
        return peakEwma.valueNanos(nowNanos) / 1e6;
    }

    private void recordResponse(long nowNanos, long runningNanos) {
        long epoch = Math.floorDiv(nowNanos, BUCKET_NANOS);
        int base = (int) Math.floorMod(epoch, BUCKETS) * 3;
        long seen = responseCells.get(base);
        if (seen != epoch && responseCells.compareAndSet(base, seen, epoch)) {
            responseCells.set(base + 1, 0);
            responseCells.set(base + 2, 0);
        }
        responseCells.addAndGet(base + 1, runningNanos);
        responseCells.incrementAndGet(base + 2);
    }

    /**
     * Mean running time in milliseconds of the requests that ended in the second before {@code nowNanos}
     * (the current bucket and the nine before it), or {@link Double#NaN} when none did.
     */
    public double recentResponseTimeMillis(long nowNanos) {
        long current = Math.floorDiv(nowNanos, BUCKET_NANOS);
        long sum = 0;
        long count = 0;
        for (int i = 0; i < BUCKETS; i++) {
            int base = i * 3;
            long epoch = responseCells.get(base);
            if (current - epoch < BUCKETS && epoch <= current) {
                sum += responseCells.get(base + 1);
                count += responseCells.get(base + 2);
            }
        }
        return count == 0 ? Double.NaN : sum / 1e6 / count;
    }
}
