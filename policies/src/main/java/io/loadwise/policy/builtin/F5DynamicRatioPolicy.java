package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyOptions;
import java.util.List;

/**
 * TAPR-11: F5 Dynamic Ratio. Each node's ratio is computed from its latest agent sample with
 * {@link F5Weights} (Equation 1) when the picker is built; picks then walk a smooth weighted
 * round-robin cycle over those ratios, so a 54:21 pair interleaves rather than sending 54 in a row.
 *
 * <p>Nodes without a fresh sample or missing one of the three metrics are left out of the cycle; they
 * are used, by least connections, only when no node in the cycle is usable.
 */
public final class F5DynamicRatioPolicy implements LoadBalancingPolicy {

    static final String ID = "f5-dynamic-ratio";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String description() {
        return "F5 Dynamic Ratio: smooth weighted round-robin over ratios from CPU, memory and I/O wait";
    }

    @Override
    public boolean usesAgentMetrics() {
        return true;
    }

    @Override
    public List<String> validate(PolicyOptions options) {
        return F5Weights.validate(options);
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        F5Weights formula = F5Weights.from(env.options());
        int[] weights = new int[snapshot.size()];
        double[] unknownMarker = new double[snapshot.size()];
        for (int i = 0; i < weights.length; i++) {
            weights[i] = formula.weight(snapshot.node(i).agentSample());
            // Fallback order: nodes in the cycle first, then unknown ones, each by least connections.
            unknownMarker[i] = weights[i] == 0 ? Double.NaN : 0;
        }
        SmoothWrrTable table = new SmoothWrrTable(snapshot, weights, WrrPicker.carriedCursor(ID, previous));
        return new WrrPicker(ID, table, new ArgminPicker(snapshot, new AgentLoad(unknownMarker)));
    }
}
