package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyInput;
import io.loadwise.policy.PolicyMetric;
import java.util.Set;

/**
 * LL-SESSIONS: the node whose agent reported the fewest active HTTP sessions ({@code AMX_SESSIONS_ACT}).
 * Nodes without a fresh value are "unknown": they get the share of an average node, by least connections
 * among themselves ({@link UnknownSharePicker}); with no fresh value anywhere this is least connections.
 */
public final class LeastSessionsPolicy implements LoadBalancingPolicy {

    private static final Set<PolicyInput> INPUTS = Set.of(PolicyInput.AGENT_METRICS);

    @Override
    public String id() {
        return "least-sessions";
    }

    @Override
    public String description() {
        return "Least sessions: fewest active HTTP sessions (agent AMX_SESSIONS_ACT), ties rotate";
    }

    @Override
    public Set<PolicyInput> inputs() {
        return INPUTS;
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        return UnknownSharePicker.over(snapshot, AgentLoad.metricValues(snapshot, PolicyMetric.AMX_SESSIONS_ACT));
    }
}
