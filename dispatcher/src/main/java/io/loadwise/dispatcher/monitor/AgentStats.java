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
    /** Silence, back-off and the poll chain; see {@link ReprobeSchedule}. */
    private final ReprobeSchedule schedule;
    /**
     * Whether an agent has ever answered on the node (200 or its 401): from then on a 404 on the agent path
     * means the application is not deployed (yet), not that the node has no agent.
     */
    private volatile boolean agentAnswered;
    /** When a 404 of the node last had its agent asked whether the application is there ({@link System#nanoTime}). */
    private final AtomicLong lastSuspicionNanos = new AtomicLong(Long.MIN_VALUE / 2);
    /** A poll is wanted now, whatever the policy reads: the node answered 404 on a path another node serves. */
    private volatile boolean probeRequested;
    /** Whether the agent's refusal (401) has been logged since the last good poll: it is logged once. */
    private final AtomicBoolean refusalLogged = new AtomicBoolean();

    AgentStats() {
        this(System.nanoTime());
    }

    /** @param startNanos when monitoring began: a node that was just added gets one expiry period to answer */
    AgentStats(long startNanos) {
        this.schedule = new ReprobeSchedule(startNanos);
    }

    /** When a policy that reads no agent last asked whether the node has one ({@link System#nanoTime}). */
    private volatile long lastDiscoveryNanos;
    private volatile boolean discovered;

    /** Whether it is time to ask, under a policy that reads no agent, whether the node has one. */
    boolean discoveryDue(long nowNanos, long periodNanos) {
        return !agentAnswered && (!discovered || nowNanos - lastDiscoveryNanos >= periodNanos);
    }

    void discoveryAsked(long nowNanos) {
        lastDiscoveryNanos = nowNanos;
        discovered = true;
    }

    boolean agentAnswered() {
        return agentAnswered;
    }

    void agentAnswered(boolean answered) {
        if (answered) {
            agentAnswered = true;
        }
    }

    /**
     * True for the caller that may have the agent asked now because the node answered a 404 on a path another
     * node serves: at most once a second per node, so that a stream of 404s costs one poll a second.
     */
    boolean claimSuspicionProbe(long nowNanos) {
        long last = lastSuspicionNanos.get();
        return nowNanos - last >= 1_000_000_000L && lastSuspicionNanos.compareAndSet(last, nowNanos);
    }

    void requestProbe() {
        probeRequested = true;
    }

    /** Whether a probe was requested since the last call; clears the request. */
    boolean takeProbeRequest() {
        if (!probeRequested) {
            return false;
        }
        probeRequested = false;
        return true;
    }

    ReprobeSchedule schedule() {
        return schedule;
    }

    void pollSucceeded(long elapsedNanos) {
        pollsOk.increment();
        lastPollMicros.set(elapsedNanos / 1_000);
        lastError = null;
        refusalLogged.set(false);
    }

    /** Whether the agent's silence has been reported and not yet ended by a sign of life. */
    boolean silent() {
        return schedule.silent();
    }

    /** True for the caller that first sees the agent refuse a poll since the last good one. */
    boolean markRefusalLogged() {
        return refusalLogged.compareAndSet(false, true);
    }

    void pollFailed(String error) {
        pollsFailed.increment();
        lastError = error;
    }

    void piggybackAccepted() {
        piggybacks.increment();
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
