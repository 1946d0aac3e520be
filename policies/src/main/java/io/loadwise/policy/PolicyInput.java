package io.loadwise.policy;

import java.util.Set;

/**
 * What a policy reads of its nodes beyond what the dispatcher always keeps (configuration, enabled and
 * health flags, connection and request counts), declared by {@link LoadBalancingPolicy#inputs()}.
 *
 * <p>Each input costs the dispatcher work and needs an HTTP cluster: the dispatcher polls node agents
 * only for a policy that declares {@link #AGENT_METRICS}, and refuses a policy that declares any input
 * for a TCP cluster, which collects neither. Connection counts are no input: every cluster keeps them.
 */
public enum PolicyInput {

    /** {@link NodeView#agentSample()}: the node agent's metrics, polled or piggybacked on responses. */
    AGENT_METRICS,

    /** {@link NodeView#recentResponseTimeMillis()}: running times of HTTP requests, measured per request. */
    RESPONSE_TIMES;

    /**
     * What a policy written before {@link LoadBalancingPolicy#inputs()} declares when it overrides
     * {@code usesAgentMetrics()}. A constant, because the dispatcher asks once per piggybacked report.
     */
    static final Set<PolicyInput> LEGACY_AGENT_METRICS = Set.of(AGENT_METRICS);
}
