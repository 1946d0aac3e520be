package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyInput;
import java.util.Set;

/** TAPR-09: the usable node with the fewest active connections, read live at pick time; ties rotate. */
public final class LeastConnectionsPolicy implements LoadBalancingPolicy {

    @Override
    public String id() {
        return "least-connections";
    }

    @Override
    public String description() {
        return "Least connections: fewest active connections (live), ties rotate";
    }

    /** Nothing beyond configuration, flags and connection counts: usable in TCP clusters. */
    @Override
    public Set<PolicyInput> inputs() {
        return Set.of();
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        return new ArgminPicker(snapshot, ActiveConnectionsLoad.INSTANCE);
    }
}
