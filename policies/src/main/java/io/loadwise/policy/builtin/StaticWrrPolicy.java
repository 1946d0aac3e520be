package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyInput;
import java.util.Set;

/**
 * TAPR-03/06: static weighted round-robin, interleaved. Node weights (the configured
 * {@link io.loadwise.policy.NodeView#weight()}) become a smooth WRR cycle at build time; picking walks
 * it. The cursor carries over when the picker is rebuilt, so a weight or health change does not
 * restart the cycle at its first node.
 */
public final class StaticWrrPolicy implements LoadBalancingPolicy {

    static final String ID = "static-wrr";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String description() {
        return "Static weighted round-robin: smooth interleaved cycle by configured node weight";
    }

    /** Nothing beyond configuration, flags and connection counts: usable in TCP clusters. */
    @Override
    public Set<PolicyInput> inputs() {
        return Set.of();
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        int[] weights = new int[snapshot.size()];
        for (int i = 0; i < weights.length; i++) {
            weights[i] = Math.max(1, snapshot.node(i).weight());
        }
        SmoothWrrTable table = new SmoothWrrTable(snapshot, weights, WrrPicker.carriedCursor(ID, previous));
        return new WrrPicker(ID, table, new ArgminPicker(snapshot, ActiveConnectionsLoad.INSTANCE));
    }
}
