package io.loadwise.agent.load;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * What the servlet filter records about the requests it sees: how many are in flight, and cumulative
 * counts of completed requests, of those answered with an error (status 500 or above, or an exception),
 * their total service time and a fixed-size histogram of service times.
 * The request path ({@link #begin}, {@link #end}) only adds to adders and atomics: no lock, no allocation.
 * Everything else ({@link RequestWindow}) runs on the sampler thread and works on differences between
 * two reads of these cumulative counters, as mod_cluster's {@code RequestCountLoadMetric} does with the
 * connector's request count.
 */
public final class RequestRecorder {

    /** Index of the first bucket count in {@link #readCumulative}. */
    static final int BUCKETS = 3;

    private final LongSupplier nanoClock;
    private final LongAdder inFlight = new LongAdder();
    private final LongAdder completed = new LongAdder();
    private final LongAdder totalNanos = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final AtomicLongArray buckets = new AtomicLongArray(ServiceTimeBuckets.COUNT);

    /** A recorder on {@link System#nanoTime()}. */
    public RequestRecorder() {
        this(System::nanoTime);
    }

    /** @param nanoClock monotonic nanoseconds (tests pass a manual clock) */
    public RequestRecorder(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    /** A request enters the application; returns the start time to hand to {@link #end}. */
    public long begin() {
        inFlight.increment();
        return nanoClock.getAsLong();
    }

    /** The request that {@link #begin} returned {@code startNanos} for has left the application. */
    public void end(long startNanos) {
        end(startNanos, false);
    }

    /**
     * As {@link #end(long)}; {@code failed} when the application answered with a status of 500 or above or
     * threw: what ORCA's {@code eps} counts, and what gRPC's weighted round robin penalises.
     */
    public void end(long startNanos, boolean failed) {
        if (failed) {
            errors.increment();
        }
        long nanos = Math.max(0, nanoClock.getAsLong() - startNanos);
        buckets.incrementAndGet(ServiceTimeBuckets.index(nanos / 1000));
        totalNanos.add(nanos);
        completed.increment();
        inFlight.decrement();
    }

    /** Requests in the application now (never negative, even while a begin/end pair is half done). */
    long inFlight() {
        return Math.max(0, inFlight.sum());
    }

    /**
     * Copies the cumulative counters into {@code into}: index 0 completed requests, 1 total service
     * nanoseconds, 2 failed requests, then the {@link ServiceTimeBuckets#COUNT} bucket counts. Not an atomic snapshot: a
     * request finishing meanwhile may be in one counter and not yet in another, which the next read fixes.
     */
    void readCumulative(long[] into) {
        into[0] = completed.sum();
        into[1] = totalNanos.sum();
        into[2] = errors.sum();
        for (int i = 0; i < ServiceTimeBuckets.COUNT; i++) {
            into[BUCKETS + i] = buckets.get(i);
        }
    }

    /** Length of the array {@link #readCumulative} fills. */
    static int cumulativeLength() {
        return BUCKETS + ServiceTimeBuckets.COUNT;
    }
}
