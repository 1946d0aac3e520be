package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyMetric;

/**
 * TAPR-07: the node whose agent reported the lowest CPU utilisation ({@code OS_CPU_USED%}). Nodes
 * without a fresh value are used only when no node with one is usable (then by least connections).
 */
public final class LeastLoadedPolicy implements LoadBalancingPolicy {

    @Override
    public String id() {
        return "least-loaded";
    }

    @Override
    public String description() {
        return "Least loaded: lowest CPU utilisation (agent OS_CPU_USED%), ties rotate";
    }

    @Override
    public boolean usesAgentMetrics() {
        return true;
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        return new ArgminPicker(snapshot, AgentLoad.ofMetric(snapshot, PolicyMetric.OS_CPU_USED));
    }
}
