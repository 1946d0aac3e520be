package io.loadwise.dispatcher.control;

import io.loadwise.policy.PolicyInput;
import java.util.Map;
import java.util.Set;

/**
 * The policy in force in a cluster.
 *
 * @param inputs what it reads beyond configuration and connection counts
 * @param options its options in force, by name
 */
public record PolicyStatus(String id, String description, Set<PolicyInput> inputs, Map<String, Double> options) {

    public PolicyStatus {
        inputs = Set.copyOf(inputs);
        options = Map.copyOf(options);
    }

    /** Whether the dispatcher polls the cluster's agents for this policy. */
    public boolean readsAgentMetrics() {
        return inputs.contains(PolicyInput.AGENT_METRICS);
    }
}
