package io.loadwise.sim.scenario;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.NodeCounters;
import io.loadwise.sim.engine.SimulatedNodeView;
import java.util.ArrayDeque;
import java.util.function.LongSupplier;

/**
 * One simulated application server of the sweep's testbed: worker threads with a bounded request queue, a
 * bounded JDBC pool and a heap filled by sessions. Seen by policies through the dispatcher's {@link NodeView}
 * with the dispatcher's {@link NodeCounters}: in per-connection HTTP mode {@code activeConnections} counts the
 * client connections bound to the node and {@code inFlightRequests} the requests sent and not yet answered.
 *
 * <p>The node only keeps state and answers "may this start?"; {@link TestbedSimulation} drives time.
 */
public final class TestbedNode extends SimulatedNodeView {

    private final NodeResources resources;
    private final long baseHeapBytes;
    private final long sessionBytes;

    /** Requests holding a worker (running, or waiting for a JDBC connection). */
    private int busyWorkers;
    /** Requests admitted but waiting for a worker, by request id, FIFO. */
    final ArrayDeque<Integer> queue = new ArrayDeque<>();
    private int jdbcInUse;
    /** Requests holding a worker and waiting for a JDBC connection, by request id, FIFO. */
    final ArrayDeque<Integer> jdbcWaiters = new ArrayDeque<>();
    /** Live sessions: last access time (nanos) by session id; at most heap / session size of them. */
    final java.util.HashMap<Long, Long> sessions = new java.util.HashMap<>();

    TestbedNode(int index, int weight, NodeResources resources, LongSupplier clock, long expiryMillis,
            double baseHeapFraction, int sessionKb) {
        super(index, "VCN" + (index + 1), weight, clock, expiryMillis);
        this.resources = resources;
        this.baseHeapBytes = (long) (baseHeapFraction * resources.heapMb() * 1024L * 1024L);
        this.sessionBytes = sessionKb * 1024L;
    }

    public NodeResources resources() {
        return resources;
    }

    /** Outcome of a request reaching the node. */
    enum Admission { WORKER, QUEUED, REFUSED }

    /** A request arrives: a free worker takes it, else it queues, else (workers + queue full) the node refuses. */
    Admission admit(int request) {
        if (busyWorkers < resources.workers()) {
            busyWorkers++;
            return Admission.WORKER;
        }
        if (queue.size() < resources.queue()) {
            queue.addLast(request);
            return Admission.QUEUED;
        }
        return Admission.REFUSED;
    }

    /** A worker is free again: the next queued request takes it (returned), or the worker idles (-1). */
    int releaseWorker() {
        Integer next = queue.pollFirst();
        if (next == null) {
            busyWorkers--;
            return -1;
        }
        return next;
    }

    /** Takes a JDBC connection if one is free. */
    boolean tryAcquireJdbc() {
        if (jdbcInUse < resources.jdbcPool()) {
            jdbcInUse++;
            return true;
        }
        return false;
    }

    /** A JDBC connection is returned: handed to the first waiter (returned), or back to the pool (-1). */
    int releaseJdbc() {
        Integer next = jdbcWaiters.pollFirst();
        if (next == null) {
            jdbcInUse--;
            return -1;
        }
        return next;
    }

    /** Bytes of heap in use: the base and every live session. */
    long heapUsedBytes() {
        return baseHeapBytes + sessions.size() * sessionBytes;
    }

    long heapMaxBytes() {
        return resources.heapMb() * 1024L * 1024L;
    }

    /** Whether one more session fits; if not, allocating it is an OutOfMemoryError. */
    boolean sessionFits() {
        return heapUsedBytes() + sessionBytes <= heapMaxBytes();
    }

    /** Drops sessions idle for longer than {@code timeoutNanos}; returns how many. */
    int expireSessions(long now, long timeoutNanos) {
        int before = sessions.size();
        sessions.values().removeIf(lastAccess -> now - lastAccess > timeoutNanos);
        return before - sessions.size();
    }

    int busyWorkers() {
        return busyWorkers;
    }

    int jdbcInUse() {
        return jdbcInUse;
    }

    void deliver(AgentSample delivered) {
        deliverSample(delivered);
    }
}
