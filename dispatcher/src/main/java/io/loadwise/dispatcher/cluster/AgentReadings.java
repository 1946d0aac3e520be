package io.loadwise.dispatcher.cluster;

import io.loadwise.policy.AgentSample;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * The agent side of one node ({@link NodeState} hands it out through its {@code agent...} methods): the latest
 * good sample, when it arrived, and the node monitor's last conclusion about the agent. A sample is fresh for
 * {@code agentExpiryMs}; while it is, the agent is {@link AgentState#OK} whatever a failed poll says.
 *
 * <p>Written by event loops (piggybacked samples) and the node monitor (polled samples, failures); every field
 * is atomic or volatile.
 */
final class AgentReadings {

    private static final String NO_SAMPLE_YET = "no sample yet";

    private final LongSupplier nanoClock;
    private final long expiryNanos;
    private volatile AgentSample sample;
    /** nanoClock time the latest good sample arrived; meaningful only when {@link #sample} is set. */
    private volatile long receivedNanos;
    /** The node monitor's last conclusion about the agent; {@link #state()} adds sample expiry. */
    private final AtomicReference<AgentState> concluded = new AtomicReference<>(AgentState.UNKNOWN);
    private volatile String problem = NO_SAMPLE_YET;

    AgentReadings(long expiryMillis, LongSupplier nanoClock) {
        this.expiryNanos = expiryMillis * 1_000_000L;
        this.nanoClock = nanoClock;
    }

    /** The latest sample while it is fresh, else {@code null}: what policies read. */
    AgentSample freshSample() {
        AgentSample latest = sample;
        return latest != null && fresh(nanoClock.getAsLong()) ? latest : null;
    }

    private boolean fresh(long nowNanos) {
        return sample != null && nowNanos - receivedNanos <= expiryNanos;
    }

    /** The latest sample whatever its age, or {@code null}; for display. */
    AgentSample latest() {
        return sample;
    }

    /** Age of the latest (last good) sample in milliseconds, or -1 when there is none. */
    long ageMillis() {
        return sample == null ? -1 : (nanoClock.getAsLong() - receivedNanos) / 1_000_000L;
    }

    /**
     * The agent's state now: {@link AgentState#OK} while the latest sample is fresh, otherwise what the
     * node monitor concluded ({@link AgentState#UNKNOWN} or {@link AgentState#UNAUTHORIZED}), and
     * {@link AgentState#UNKNOWN} once an OK agent's sample has expired.
     */
    AgentState state() {
        if (fresh(nanoClock.getAsLong())) {
            return AgentState.OK;
        }
        AgentState last = concluded.get();
        return last == AgentState.OK ? AgentState.UNKNOWN : last;
    }

    /** Why the agent is not OK, for operators (e.g. "agent answered HTTP 404"), or {@code null} when it is. */
    String problem() {
        if (fresh(nanoClock.getAsLong())) {
            return null;
        }
        return concluded.get() == AgentState.OK
                ? "no sample for more than " + expiryNanos / 1_000_000L + " ms" : problem;
    }

    /** Takes over another node's readings (the same node in a rebuilt cluster, {@link NodeHandover}). */
    void adopt(AgentReadings from) {
        this.receivedNanos = from.receivedNanos;
        this.sample = from.sample;
        this.problem = from.problem;
        this.concluded.set(from.concluded.get());
    }

    /** A good sample arrived, polled or piggybacked: a sign of life that makes the agent OK at once. */
    void update(AgentSample next) {
        this.receivedNanos = nanoClock.getAsLong();
        this.sample = next;
        if (concluded.get() != AgentState.OK) { // piggybacks call this per response: write only on change
            concluded.set(AgentState.OK);
        }
    }

    /**
     * A poll failed ({@code why} says how), and the agent is {@code state} ({@link AgentState#UNKNOWN}, or
     * {@link AgentState#UNAUTHORIZED} after a 401) unless a fresh sample still vouches for it: one slow answer
     * from a busy node is no reason to stop judging it.
     *
     * @return whether this changed the state from OK, so the picker must be rebuilt without the sample
     */
    boolean failed(AgentState state, String why) {
        if (fresh(nanoClock.getAsLong())) {
            return false;
        }
        problem = why;
        return concluded.getAndSet(state) == AgentState.OK;
    }
}
