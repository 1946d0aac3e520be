package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyInput;
import java.util.Arrays;
import java.util.Set;

/**
 * TAPR-02: nodes in configuration order, one after another, ignoring weights. An unusable node's turn
 * is skipped rather than handed to its successor, so the survivors still alternate evenly.
 */
public final class RoundRobinPolicy implements LoadBalancingPolicy {

    static final String ID = "round-robin";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String description() {
        return "Round-robin: usable nodes in turn, in configuration order";
    }

    /** Nothing beyond configuration, flags and connection counts: usable in TCP clusters. */
    @Override
    public Set<PolicyInput> inputs() {
        return Set.of();
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        int[] ones = new int[snapshot.size()];
        Arrays.fill(ones, 1);
        SmoothWrrTable table = new SmoothWrrTable(snapshot, ones, WrrPicker.carriedCursor(ID, previous));
        return new WrrPicker(ID, table, new ArgminPicker(snapshot, ActiveConnectionsLoad.INSTANCE));
    }
}
