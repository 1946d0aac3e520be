package io.loadwise.console.api;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.Affinity;
import io.loadwise.dispatcher.config.Balance;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.policy.AgentSample;
import io.loadwise.policy.LoadBalancingPolicy;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * JSON of one running cluster: what {@code GET /api/clusters/{name}} returns. The live parts (policy in
 * force, node flags and counters) come from the runtime objects, the rest from the configuration in force.
 *
 * @param balance HTTP only, {@code null} for tcp
 * @param affinity HTTP only, {@code null} for tcp
 * @param config the cluster's configuration as persisted, ready to edit and {@code PUT} back
 */
record ClusterView(String name, Mode mode, Listen listen, PolicyInForce policy, Balance balance, Affinity affinity,
        List<NodeView> nodes, ClusterConfig config) {

    /** @param bound the address actually bound, {@code null} when not listening */
    record Listen(String configured, String bound) {
    }

    record PolicyInForce(String id, String description, boolean usesAgentMetrics, Map<String, Double> options) {
    }

    /**
     * One node. {@code enabled} is the administrative flag; {@code draining} is separate, and a node takes
     * new work only when enabled, not draining and healthy.
     */
    record NodeView(String name, String address, String route, int weight, boolean enabled, boolean draining,
            boolean healthy, boolean connectDown, boolean agentDown, int activeConnections, int inFlightRequests,
            Double recentResponseTimeMillis, long requests, long failures, long selections, AgentSummary agent) {

        static NodeView of(NodeState node) {
            InetSocketAddress a = node.address();
            String address = (a.getHostString().indexOf(':') >= 0 ? "[" + a.getHostString() + "]" : a.getHostString())
                    + ":" + a.getPort();
            return new NodeView(node.name(), address, node.route(), node.weight(), node.configuredEnabled(),
                    node.draining(), node.healthy(), node.connectDown(), node.agentDown(), node.activeConnections(),
                    node.inFlightRequests(), Figures.finite(node.recentResponseTimeMillis()),
                    node.counters().totalRequests(), node.counters().failedRequests(),
                    node.counters().totalSelections(), AgentSummary.of(node));
        }
    }

    /** The latest agent sample whatever its age ({@code null} when none has arrived). */
    record AgentSummary(long ageMs, AgentSample.Source source, long timestampMillis, Map<String, Double> metrics) {

        static AgentSummary of(NodeState node) {
            AgentSample sample = node.latestAgentSample();
            if (sample == null) {
                return null;
            }
            return new AgentSummary(Math.max(0, node.agentSampleAgeMillis()), sample.source(),
                    sample.timestampMillis(), sample.metrics());
        }
    }

    static ClusterView of(ClusterControl control, VirtualCluster cluster) {
        ClusterConfig config = configInForce(control, cluster);
        LoadBalancingPolicy policy = cluster.policy();
        List<NodeView> nodes = new ArrayList<>();
        for (NodeState node : cluster.nodes()) {
            nodes.add(NodeView.of(node));
        }
        InetSocketAddress bound = control.boundAddress(cluster.name());
        boolean http = config.mode() == Mode.HTTP;
        return new ClusterView(cluster.name(), config.mode(),
                new Listen(config.listen(), bound == null ? null : bound.getHostString() + ":" + bound.getPort()),
                new PolicyInForce(policy.id(), policy.description(), policy.usesAgentMetrics(),
                        cluster.policyOptions().asMap()),
                http ? config.balanceOrDefault() : null, http ? config.affinityOrDefault() : null, nodes, config);
    }

    private static ClusterConfig configInForce(ClusterControl control, VirtualCluster cluster) {
        for (ClusterConfig c : control.config().clustersOrEmpty()) {
            if (c.name().equals(cluster.name())) {
                return c;
            }
        }
        return cluster.config();
    }
}
