package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyMetric;

/**
 * LL-SESSIONS: the node whose agent reported the fewest active HTTP sessions ({@code AMX_SESSIONS_ACT}).
 * Nodes without a fresh value are used only when no node with one is usable (then by least connections).
 */
public final class LeastSessionsPolicy implements LoadBalancingPolicy {

    @Override
    public String id() {
        return "least-sessions";
    }

    @Override
    public String description() {
        return "Least sessions: fewest active HTTP sessions (agent AMX_SESSIONS_ACT), ties rotate";
    }

    @Override
    public boolean usesAgentMetrics() {
        return true;
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        return new ArgminPicker(snapshot, AgentLoad.ofMetric(snapshot, PolicyMetric.AMX_SESSIONS_ACT));
    }
}
