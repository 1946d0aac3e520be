package io.loadwise.console.api;

import io.loadwise.dispatcher.control.AgentPolling;
import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.ClusterStatus;
import io.loadwise.dispatcher.control.NodeStatus;
import io.loadwise.policy.AgentSample;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /api/clusters/{name}/nodes/{node}/metrics}: the node's latest agent sample with the seed's
 * metric names, its age and source (piggyback or poll), and what the dispatcher measures of the node and
 * its agent (seed Table 6). {@code sample} is {@code null} until a first sample has arrived.
 */
final class NodeMetricsResource {

    private final ClusterControl control;

    NodeMetricsResource(ClusterControl control) {
        this.control = control;
    }

    Reply get(ApiCall call) throws ApiException {
        ClusterStatus cluster = ClustersResource.require(control, call.pathParam(0));
        NodeStatus node = NodeResource.require(cluster, call.pathParam(1));
        AgentSample sample = node.agent().latestSample();
        long sampleAge = Math.max(0, node.agent().sampleAgeMillis());
        AgentPolling agent = node.agent().polling();
        Map<String, Object> policy = new LinkedHashMap<>();
        policy.put("NODE_NMA_RSPS_TIME", agent == null ? null : Figures.finite(agent.lastPollMillis()));
        policy.put("NODE_AVAILABILITY%", agent == null ? null : Figures.finite(agent.availabilityPercent()));
        policy.put("TAP_NODE_SEL", node.counters().selections());
        policy.put("TAP_RQST_LASTTIME", Figures.finite(node.recentResponseTimeMillis()));
        return Reply.ok(new NodeMetrics(cluster.name(), node.name(), !node.agent().ok(),
                sample == null ? null : new Sample(sample.timestampMillis(), sampleAge,
                        sample.source().name().toLowerCase(java.util.Locale.ROOT), sample.metrics()),
                agent == null ? null : new Agent(agent.pollsOk(), agent.pollsFailed(), agent.piggybackReports(),
                        agent.malformedReports(), agent.lastError()),
                policy));
    }

    /** @param agentDown the node is out of agent-driven policies because its agent cannot be read */
    record NodeMetrics(String cluster, String node, boolean agentDown, Sample sample, Agent agent,
            Map<String, Object> policyMetrics) {
    }

    /** @param source {@code piggyback} or {@code poll} */
    record Sample(long timestamp, long ageMs, String source, Map<String, Double> metrics) {
    }

    record Agent(long pollsOk, long pollsFailed, long piggybackReports, long malformedReports, String lastError) {
    }
}
