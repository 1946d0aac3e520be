package io.loadwise.dispatcher.runtime;

import io.loadwise.dispatcher.cluster.AgentState;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.control.AffinityCounts;
import io.loadwise.dispatcher.control.AgentPolling;
import io.loadwise.dispatcher.control.AgentStatus;
import io.loadwise.dispatcher.control.ClusterStatus;
import io.loadwise.dispatcher.control.NodeStatus;
import io.loadwise.dispatcher.control.PolicyStatus;
import io.loadwise.dispatcher.http.AffinityCounters;
import io.loadwise.dispatcher.http.HttpProxyServer;
import io.loadwise.dispatcher.monitor.AgentStats;
import io.loadwise.dispatcher.monitor.NodeMonitor;
import io.loadwise.policy.LoadBalancingPolicy;
import java.util.ArrayList;
import java.util.List;

/**
 * Copies a running cluster's live state into the views of {@link io.loadwise.dispatcher.control.ClusterControl}.
 * Runs on the thread that asks (an API request, the console's once-a-second recorder), never on an event
 * loop; it only reads volatile fields and counters, so the proxy never waits for it.
 */
final class StatusReader {

    private StatusReader() {
    }

    /** @param inForce the cluster's configuration as persisted */
    static ClusterStatus cluster(RunningCluster running, ClusterConfig inForce, NodeMonitor monitor) {
        VirtualCluster cluster = running.cluster();
        LoadBalancingPolicy policy = cluster.policy();
        PolicyStatus policyStatus = new PolicyStatus(policy.id(), policy.description(), policy.inputs(),
                cluster.policyOptions().asMap());
        List<NodeStatus> nodes = new ArrayList<>(cluster.nodes().size());
        for (NodeState node : cluster.nodes()) {
            nodes.add(node(node, monitor.stats(node)));
        }
        return new ClusterStatus(cluster.name(), inForce, running.listener().boundAddress(), policyStatus,
                affinity(running), cluster.counters().read(), nodes);
    }

    private static AffinityCounts affinity(RunningCluster running) {
        if (!(running.listener() instanceof HttpProxyServer http)) {
            return null;
        }
        AffinityCounters counters = http.affinityCounters();
        return new AffinityCounts(counters.hits(), counters.misses(), counters.unpinned());
    }

    /** @param stats the node monitor's figures, {@code null} when the node is not monitored */
    static NodeStatus node(NodeState node, AgentStats stats) {
        boolean healthy = node.healthy();
        AgentState state = node.agentState();
        AgentStatus agent = new AgentStatus(state == AgentState.OK, state.id(),
                state == AgentState.OK ? null : node.agentProblem(), node.latestAgentSample(),
                node.agentSampleAgeMillis(), stats == null ? null : polling(stats));
        return new NodeStatus(node.name(), node.address(), node.route(), node.weight(), node.configuredEnabled(),
                node.draining(), healthy, !healthy, node.activeConnections(), node.inFlightRequests(),
                node.recentResponseTimeMillis(), node.counters().read(), agent);
    }

    private static AgentPolling polling(AgentStats stats) {
        return new AgentPolling(stats.pollsOk(), stats.pollsFailed(), stats.piggybackReports(),
                stats.malformedReports(), stats.lastError(), stats.lastPollMillis(), stats.availabilityPercent());
    }
}
