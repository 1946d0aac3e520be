package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyInput;
import io.loadwise.policy.PolicyOptions;
import java.util.List;
import java.util.Set;

/**
 * TAPR-11: F5 Dynamic Ratio. Each node's ratio is computed from its latest agent sample with
 * {@link F5Weights} (Equation 1) when the picker is built; picks then walk a smooth weighted
 * round-robin cycle over those ratios, so a 54:21 pair interleaves rather than sending 54 in a row.
 *
 * <p>A node without a fresh sample, or missing one of the three metrics, is "unknown": it joins the cycle
 * with the mean ratio of the known nodes, so it gets the share of an average node. With no known node
 * every ratio is 1 and the policy is round robin. A ratio of 1 for unknown nodes among known ones was
 * rejected: next to a node at 54 it would starve a node only because it runs no agent.
 */
public final class F5DynamicRatioPolicy implements LoadBalancingPolicy {

    private static final Set<PolicyInput> INPUTS = Set.of(PolicyInput.AGENT_METRICS);

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
    public Set<PolicyInput> inputs() {
        return INPUTS;
    }

    @Override
    public List<String> validate(PolicyOptions options) {
        return F5Weights.validate(options);
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        int[] weights = weights(F5Weights.from(env.options()), snapshot);
        SmoothWrrTable table = new SmoothWrrTable(snapshot, weights, WrrPicker.carriedCursor(ID, previous));
        // Every node is in the cycle; when the table yields nothing usable, least connections decides.
        return new WrrPicker(ID, table, new ArgminPicker(snapshot, ActiveConnectionsLoad.INSTANCE));
    }

    /** Equation 1 per node; unknown nodes get the rounded mean of the known ratios, or 1 if none is known. */
    static int[] weights(F5Weights formula, ClusterSnapshot snapshot) {
        int[] weights = new int[snapshot.size()];
        long knownSum = 0;
        int known = 0;
        for (int i = 0; i < weights.length; i++) {
            weights[i] = formula.weight(snapshot.node(i).agentSample());
            knownSum += weights[i];
            known += weights[i] > 0 ? 1 : 0;
        }
        int unknownWeight = known == 0 ? F5Weights.MIN_WEIGHT
                : (int) Math.max(F5Weights.MIN_WEIGHT, Math.round((double) knownSum / known));
        for (int i = 0; i < weights.length; i++) {
            weights[i] = weights[i] == 0 ? unknownWeight : weights[i];
        }
        return weights;
    }
}
