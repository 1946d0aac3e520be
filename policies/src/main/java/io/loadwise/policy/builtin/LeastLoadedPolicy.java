package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyInput;
import io.loadwise.policy.PolicyMetric;
import java.util.Set;

/**
 * TAPR-07: the node whose agent reported the lowest CPU utilisation ({@code OS_CPU_USED%}).
 * Nodes without a fresh value are "unknown": they get the share of an average node, by least connections
 * among themselves ({@link UnknownSharePicker}); with no fresh value anywhere this is least connections.
 */
public final class LeastLoadedPolicy implements LoadBalancingPolicy {

    private static final Set<PolicyInput> INPUTS = Set.of(PolicyInput.AGENT_METRICS);

    @Override
    public String id() {
        return "least-loaded";
    }

    @Override
    public String description() {
        return "Least loaded: lowest CPU utilisation (agent OS_CPU_USED%), ties rotate";
    }

    @Override
    public Set<PolicyInput> inputs() {
        return INPUTS;
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        return UnknownSharePicker.over(snapshot, AgentLoad.metricValues(snapshot, PolicyMetric.OS_CPU_USED));
    }
}
