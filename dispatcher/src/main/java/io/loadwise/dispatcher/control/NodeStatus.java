package io.loadwise.dispatcher.control;

import io.loadwise.dispatcher.metrics.CounterReading;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * One node of a {@link ClusterStatus}, read at the same moment.
 *
 * @param address as configured, unresolved
 * @param route the session route carried in JSESSIONID, or {@code null}
 * @param enabled the administrative flag (persisted); draining is separate
 * @param draining takes no new work, finishes what it has (not persisted)
 * @param healthy no connect failure, failed health check, ejection or wait for its application holds the node
 *     out; a silent agent does not count
 * @param connectDown a connect failure holds the node out until its retry interval has passed
 * @param activeConnections work assigned now: tunnels, bound connections or requests in flight
 * @param inFlightRequests HTTP requests sent and not yet answered (0 for TCP)
 * @param recentResponseTimeMillis mean running time of the requests completed during the last second, NaN
 *     when there were none
 * @param counters the node's cumulative counters since start
 * @param health the active health check's state and latest check ({@link HealthStatus#NOT_CHECKED} without)
 * @param ejected outlier detection holds the node out now
 * @param ejectedUntilMillis wall-clock end of the current ejection (epoch ms), 0 when not ejected
 * @param slowStartShare the share of its picks the node keeps while it ramps up after a return (slow start),
 *     1 when it does not ramp
 * @param registered the node registered itself (it is not in the configuration file)
 * @param contexts the context paths it serves in a cluster that routes by context, else empty
 * @param awaitingReadiness out of selection until its application answers: it came back from connect failures
 *     (or its agent stopped answering 200) and neither its agent nor a health check has said it serves since
 * @param groupState what its priority group allows ({@code PriorityGroups}): {@code active} (picked when in
 *     service), {@code standby} (its group is not needed: not picked, but keeps pinned sessions) or
 *     {@code panic} (picked when it accepts connections, healthy or not)
 * @param drain how its drain stands ({@code "drain": true} or {@code "sessions"}), {@code null} when it is not
 *     draining
 * @param domain its replication domain, {@code null} when it names none
 */
public record NodeStatus(String name, InetSocketAddress address, String route, int weight, boolean enabled,
        boolean draining, boolean healthy, boolean connectDown, int activeConnections, int inFlightRequests,
        double recentResponseTimeMillis, CounterReading counters, AgentStatus agent, HealthStatus health,
        boolean ejected, long ejectedUntilMillis, double slowStartShare, boolean registered, List<String> contexts,
        boolean awaitingReadiness, String groupState, DrainStatus drain, String domain) {

    /** Every node of a cluster without priority groups, out of panic. */
    public static final String GROUP_ACTIVE = "active";

    public NodeStatus {
        contexts = contexts == null ? List.of() : List.copyOf(contexts);
    }

    /** A node in no replication domain (code written before domains). */
    public NodeStatus(String name, InetSocketAddress address, String route, int weight, boolean enabled,
            boolean draining, boolean healthy, boolean connectDown, int activeConnections, int inFlightRequests,
            double recentResponseTimeMillis, CounterReading counters, AgentStatus agent, HealthStatus health,
            boolean ejected, long ejectedUntilMillis, double slowStartShare, boolean registered, List<String> contexts,
            boolean awaitingReadiness, String groupState, DrainStatus drain) {
        this(name, address, route, weight, enabled, draining, healthy, connectDown, activeConnections,
                inFlightRequests, recentResponseTimeMillis, counters, agent, health, ejected, ejectedUntilMillis,
                slowStartShare, registered, contexts, awaitingReadiness, groupState, drain, null);
    }

    /** A node that is not draining, or whose drain progress is not read (code written before session drain). */
    public NodeStatus(String name, InetSocketAddress address, String route, int weight, boolean enabled,
            boolean draining, boolean healthy, boolean connectDown, int activeConnections, int inFlightRequests,
            double recentResponseTimeMillis, CounterReading counters, AgentStatus agent, HealthStatus health,
            boolean ejected, long ejectedUntilMillis, double slowStartShare, boolean registered, List<String> contexts,
            boolean awaitingReadiness, String groupState) {
        this(name, address, route, weight, enabled, draining, healthy, connectDown, activeConnections,
                inFlightRequests, recentResponseTimeMillis, counters, agent, health, ejected, ejectedUntilMillis,
                slowStartShare, registered, contexts, awaitingReadiness, groupState, null);
    }

    /** A configured node (code written before registration). */
    public NodeStatus(String name, InetSocketAddress address, String route, int weight, boolean enabled,
            boolean draining, boolean healthy, boolean connectDown, int activeConnections, int inFlightRequests,
            double recentResponseTimeMillis, CounterReading counters, AgentStatus agent, HealthStatus health,
            boolean ejected, long ejectedUntilMillis, double slowStartShare) {
        this(name, address, route, weight, enabled, draining, healthy, connectDown, activeConnections,
                inFlightRequests, recentResponseTimeMillis, counters, agent, health, ejected, ejectedUntilMillis,
                slowStartShare, false, List.of(), false, GROUP_ACTIVE);
    }

    /** This status with the node's registration facts. */
    public NodeStatus withRegistration(boolean isRegistered, List<String> servedContexts) {
        return new NodeStatus(name, address, route, weight, enabled, draining, healthy, connectDown,
                activeConnections, inFlightRequests, recentResponseTimeMillis, counters, agent, health, ejected,
                ejectedUntilMillis, slowStartShare, isRegistered, servedContexts, awaitingReadiness,
                groupState, drain, domain);
    }

    /** This status with the node's replication domain ({@code null}: none). */
    public NodeStatus withDomain(String replicationDomain) {
        return new NodeStatus(name, address, route, weight, enabled, draining, healthy, connectDown,
                activeConnections, inFlightRequests, recentResponseTimeMillis, counters, agent, health, ejected,
                ejectedUntilMillis, slowStartShare, registered, contexts, awaitingReadiness, groupState, drain,
                replicationDomain);
    }

    /** A node without health checks, ejection or slow start (code written before them). */
    public NodeStatus(String name, InetSocketAddress address, String route, int weight, boolean enabled,
            boolean draining, boolean healthy, boolean connectDown, int activeConnections, int inFlightRequests,
            double recentResponseTimeMillis, CounterReading counters, AgentStatus agent) {
        this(name, address, route, weight, enabled, draining, healthy, connectDown, activeConnections,
                inFlightRequests, recentResponseTimeMillis, counters, agent, HealthStatus.NOT_CHECKED, false, 0, 1.0);
    }

    /** Whether the node takes new work: enabled, not draining and healthy. */
    public boolean inService() {
        return enabled && !draining && healthy;
    }
}
