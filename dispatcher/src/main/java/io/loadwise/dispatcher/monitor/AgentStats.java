package io.loadwise.dispatcher.monitor;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the dispatcher knows about one node's agent (seed Table 6: NODE_NMA_RSPS_TIME,
 * NODE_AVAILABILITY%), plus counts of reports it had to ignore.
 */
public final class AgentStats {

    private final LongAdder pollsOk = new LongAdder();
    private final LongAdder pollsFailed = new LongAdder();
    private final LongAdder piggybacks = new LongAdder();
    private final LongAdder malformed = new LongAdder();
    private final AtomicLong lastPollMicros = new AtomicLong(-1);
    private final AtomicLong lastMalformedLogMillis = new AtomicLong(Long.MIN_VALUE / 2);
    private volatile String lastError;
    /**
     * System.nanoTime() of the last good poll or piggybacked report, or of when monitoring began: a node
     * that was just added gets one expiry period to answer before its agent is reported silent.
     */
    private volatile long lastSignOfLifeNanos = System.nanoTime();
    /** Whether the agent's silence was reported (logged once; polls then wait {@code agentReprobeMs}). */
    private final AtomicBoolean silent = new AtomicBoolean();

    void pollSucceeded(long nowNanos, long elapsedNanos) {
        pollsOk.increment();
        lastSignOfLifeNanos = nowNanos;
        lastPollMicros.set(elapsedNanos / 1_000);
        lastError = null;
    }

    /** Nanoseconds since the last good poll or report, or since monitoring began when there was none. */
    long nanosSinceSignOfLife(long nowNanos) {
        return nowNanos - lastSignOfLifeNanos;
    }

    /** True for the caller that first reports the agent silent; false while it already is. */
    boolean markSilent() {
        return silent.compareAndSet(false, true);
    }

    /** True for the caller that ends a reported silence. Cheap when there is none: piggybacks call it often. */
    boolean clearSilent() {
        return silent.get() && silent.getAndSet(false);
    }

    /** Whether the agent's silence has been reported and not yet ended by a sign of life. */
    boolean silent() {
        return silent.get();
    }

    void pollFailed(String error) {
        pollsFailed.increment();
        lastError = error;
    }

    void piggybackAccepted(long nowNanos) {
        piggybacks.increment();
        lastSignOfLifeNanos = nowNanos;
    }

    void malformedReport(String error) {
        malformed.increment();
        lastError = error;
    }

    /** True at most once a minute: whether a malformed report should be logged now. */
    boolean shouldLogMalformed(long nowMillis) {
        long last = lastMalformedLogMillis.get();
        return nowMillis - last >= 60_000 && lastMalformedLogMillis.compareAndSet(last, nowMillis);
    }

    /** NODE_NMA_RSPS_TIME: how long the last successful poll took, in ms; NaN before the first. */
    public double lastPollMillis() {
        long micros = lastPollMicros.get();
        return micros < 0 ? Double.NaN : micros / 1000.0;
    }

    /** NODE_AVAILABILITY%: successful polls over all polls since start; NaN before the first. */
    public double availabilityPercent() {
        long ok = pollsOk.sum();
        long total = ok + pollsFailed.sum();
        return total == 0 ? Double.NaN : 100.0 * ok / total;
    }

    public long pollsOk() {
        return pollsOk.sum();
    }

    public long pollsFailed() {
        return pollsFailed.sum();
    }

    public long piggybackReports() {
        return piggybacks.sum();
    }

    /** Reports (header or poll body) that could not be parsed and were ignored. */
    public long malformedReports() {
        return malformed.sum();
    }

    /** The last poll or parse error, or {@code null} after a success. */
    public String lastError() {
        return lastError;
    }
}
