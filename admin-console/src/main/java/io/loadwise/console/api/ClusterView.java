package io.loadwise.console.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.loadwise.dispatcher.cluster.AgentState;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.Affinity;
import io.loadwise.dispatcher.config.Balance;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.policy.AgentSample;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.PolicyInput;
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
 * @param affinityCounts HTTP only, {@code null} for tcp
 * @param config the cluster's configuration as persisted, ready to edit and {@code PUT} back
 */
record ClusterView(String name, Mode mode, Listen listen, PolicyInForce policy, Balance balance, Affinity affinity,
        AffinityCounts affinityCounts, List<NodeView> nodes, ClusterConfig config) {

    /**
     * Requests that named a live node by session route or affinity cookie (hits), that named a node no
     * longer usable (misses, sent to the policy), and that carried no affinity at all.
     */
    record AffinityCounts(long hits, long misses, long unpinned) {
    }

    /** @param bound the address actually bound, {@code null} when not listening */
    record Listen(String configured, String bound) {
    }

    record PolicyInForce(String id, String description, boolean usesAgentMetrics, Map<String, Double> options) {
    }

    /**
     * One node. {@code enabled} is the administrative flag; {@code draining} is separate, and a node takes
     * new work only when enabled, not draining and healthy. A silent agent does not make a node unhealthy:
     * {@code agent.state} says what the dispatcher knows about the agent, and {@code agentDown} (kept for
     * older clients) is true while an agent-driven policy has no fresh sample from the node.
     */
    record NodeView(String name, String address, String route, int weight, boolean enabled, boolean draining,
            boolean healthy, boolean connectDown, boolean agentDown, int activeConnections, int inFlightRequests,
            Double recentResponseTimeMillis, long requests, long failures, long selections, AgentSummary agent) {

        static NodeView of(VirtualCluster cluster, NodeState node) {
            InetSocketAddress a = node.address();
            String address = (a.getHostString().indexOf(':') >= 0 ? "[" + a.getHostString() + "]" : a.getHostString())
                    + ":" + a.getPort();
            boolean agentDown = cluster.policy().inputs().contains(PolicyInput.AGENT_METRICS) && node.agentState() != AgentState.OK;
            return new NodeView(node.name(), address, node.route(), node.weight(), node.configuredEnabled(),
                    node.draining(), node.healthy(), node.connectDown(), agentDown, node.activeConnections(),
                    node.inFlightRequests(), Figures.finite(node.recentResponseTimeMillis()),
                    node.counters().totalRequests(), node.counters().failedRequests(),
                    node.counters().totalSelections(), AgentSummary.of(cluster, node));
        }
    }

    /**
     * What the dispatcher knows about the node's agent, and its latest sample whatever its age. The
     * sample's fields are left out until a first sample has arrived.
     *
     * @param state {@code ok} while a sample is fresh (younger than {@code agentExpiryMs}), otherwise
     *     {@code unknown}: the node stays in selection and agent-driven policies apply their fallback
     * @param problem why the state is not {@code ok}, {@code null} when it is
     * @param lastSampleAgeMs age of the last good sample, {@code null} when none has arrived
     * @param ageMs the same age, under its older name
     */
    record AgentSummary(String state, String problem, Long lastSampleAgeMs,
            @JsonInclude(JsonInclude.Include.NON_NULL) Long ageMs,
            @JsonInclude(JsonInclude.Include.NON_NULL) AgentSample.Source source,
            @JsonInclude(JsonInclude.Include.NON_NULL) Long timestampMillis,
            @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Double> metrics) {

        static AgentSummary of(VirtualCluster cluster, NodeState node) {
            AgentState state = node.agentState();
            String problem = state == AgentState.OK ? null : problem(cluster, node);
            AgentSample sample = node.latestAgentSample();
            if (sample == null) {
                return new AgentSummary(state.id(), problem, null, null, null, null, null);
            }
            long age = Math.max(0, node.agentSampleAgeMillis());
            return new AgentSummary(state.id(), problem, age, age, sample.source(), sample.timestampMillis(),
                    sample.metrics());
        }

        /** The node's problem, or why nothing asks the agent: a policy that reads no agent metrics. */
        private static String problem(VirtualCluster cluster, NodeState node) {
            if (!cluster.policy().inputs().contains(PolicyInput.AGENT_METRICS) && node.latestAgentSample() == null) {
                return "not polled: policy " + cluster.policy().id() + " reads no agent metrics";
            }
            return node.agentProblem();
        }
    }

    static ClusterView of(ClusterControl control, VirtualCluster cluster) {
        ClusterConfig config = configInForce(control, cluster);
        LoadBalancingPolicy policy = cluster.policy();
        List<NodeView> nodes = new ArrayList<>();
        for (NodeState node : cluster.nodes()) {
            nodes.add(NodeView.of(cluster, node));
        }
        InetSocketAddress bound = control.boundAddress(cluster.name());
        boolean http = config.mode() == Mode.HTTP;
        return new ClusterView(cluster.name(), config.mode(),
                new Listen(config.listen(), bound == null ? null : bound.getHostString() + ":" + bound.getPort()),
                new PolicyInForce(policy.id(), policy.description(), policy.inputs().contains(PolicyInput.AGENT_METRICS),
                        cluster.policyOptions().asMap()),
                http ? config.balanceOrDefault() : null, http ? config.affinityOrDefault() : null,
                affinityCounts(control.affinityCounters(cluster.name())), nodes, config);
    }

    private static AffinityCounts affinityCounts(io.loadwise.dispatcher.http.AffinityCounters counters) {
        return counters == null ? null : new AffinityCounts(counters.hits(), counters.misses(), counters.unpinned());
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
