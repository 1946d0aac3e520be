package io.loadwise.sim.engine;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.NodeCounters;
import io.loadwise.policy.NodeView;

/**
 * A simulated back end: one FCFS server (seed 004's model) of relative {@code speed}, seen by policies
 * through the same {@link NodeView} the dispatcher's nodes implement. Its counters are the dispatcher's
 * ({@link NodeCounters}), updated on dispatch and completion events as the dispatcher updates them on
 * connection and response events, so a policy sees the numbers it would see behind the dispatcher: requests
 * at the node (queued and in service) count as both active connections and requests in flight.
 */
public final class SimulatedNode extends SimulatedNodeView {

    private final double speed;

    private long busyUntil;
    private long assignedWork;
    private long served;
    private long completed;

    SimulatedNode(int index, int weight, double speed, VirtualClock clock, long sampleExpiryNanos) {
        super(index, "node" + (index + 1), weight, clock::nanoTime, sampleExpiryNanos / 1_000_000L);
        this.speed = speed;
    }

    /** Relative processing speed; a request of demand d takes d / speed. */
    public double speed() {
        return speed;
    }

    /** When this node's FCFS queue drains if nothing else arrives. */
    public long busyUntil() {
        return busyUntil;
    }

    /** Unfinished work in nanoseconds at {@code now} (the oracle's "work left"). */
    public long workLeft(long now) {
        return Math.max(0, busyUntil - now);
    }

    /** Busy time accumulated up to {@code now}: all work assigned minus the work not yet done. */
    long busyNanosUntil(long now) {
        return assignedWork - workLeft(now);
    }

    long servedRequests() {
        return served;
    }

    /** Requests that have completed, for the agent's request rate. */
    long completedRequests() {
        return completed;
    }

    /** Queues a request of {@code serviceNanos}; returns its completion time. */
    long assign(long now, long serviceNanos) {
        long start = Math.max(now, busyUntil);
        busyUntil = start + serviceNanos;
        assignedWork += serviceNanos;
        live().assignmentStarted();
        live().requestSent();
        served++;
        return busyUntil;
    }

    void complete(long now, long responseNanos) {
        completed++;
        live().assignmentEnded();
        live().requestEnded(now, responseNanos);
    }

    void deliver(AgentSample delivered) {
        deliverSample(delivered);
    }
}
