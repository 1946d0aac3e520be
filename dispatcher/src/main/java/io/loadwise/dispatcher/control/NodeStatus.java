package io.loadwise.dispatcher.control;

import io.loadwise.dispatcher.metrics.CounterReading;
import java.net.InetSocketAddress;

/**
 * One node of a {@link ClusterStatus}, read at the same moment.
 *
 * @param address as configured, unresolved
 * @param route the session route carried in JSESSIONID, or {@code null}
 * @param enabled the administrative flag (persisted); draining is separate
 * @param draining takes no new work, finishes what it has (not persisted)
 * @param healthy no connect failure holds the node out; a silent agent does not count
 * @param connectDown a connect failure holds the node out until its retry interval has passed
 * @param activeConnections work assigned now: tunnels, bound connections or requests in flight
 * @param inFlightRequests HTTP requests sent and not yet answered (0 for TCP)
 * @param recentResponseTimeMillis mean running time of the requests completed during the last second, NaN
 *     when there were none
 * @param counters the node's cumulative counters since start
 */
public record NodeStatus(String name, InetSocketAddress address, String route, int weight, boolean enabled,
        boolean draining, boolean healthy, boolean connectDown, int activeConnections, int inFlightRequests,
        double recentResponseTimeMillis, CounterReading counters, AgentStatus agent) {

    /** Whether the node takes new work: enabled, not draining and healthy. */
    public boolean inService() {
        return enabled && !draining && healthy;
    }
}
