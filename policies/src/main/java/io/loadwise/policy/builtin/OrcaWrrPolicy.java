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
 * gRPC's {@code weighted_round_robin} (proposal A58, Envoy's client-side weighted round robin) as a peer
 * baseline: each node's weight is {@code qps / (utilization + eps / qps × penalty)} from its ORCA fields
 * ({@link OrcaWeights}), used only after 10 s of unbroken reports and dropped 3 min after the last one
 * ({@link OrcaWeightMemory}); nodes without a weight get the mean of those with one, and with fewer than
 * two weighted nodes every weight is equal (round robin). Picks walk an {@link EdfCycle} of the weights.
 *
 * <p>Feedback stays off the pick path, as in Envoy, where a timer recomputes the weights and workers only
 * run the scheduler: weights are recomputed at each build, which the dispatcher runs after every batch of
 * agent samples and, asked by {@link #rebuildPeriodMillis}, at least every {@code weightUpdatePeriodMs}
 * (A58's {@code weight_update_period}, 1 s). When the cycle yields no node, least connections decides.
 */
public final class OrcaWrrPolicy implements LoadBalancingPolicy {

    static final String ID = "orca-wrr";
    /** A weight is an integer share of the heaviest node's this fine (0.1 %) before the cycle is laid out. */
    static final int RESOLUTION = 1000;

    private static final Set<PolicyInput> INPUTS = Set.of(PolicyInput.AGENT_METRICS);

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String description() {
        return "ORCA weighted round robin (gRPC A58): EDF over qps / (utilization + eps/qps x penalty),"
                + " 10 s blackout, 3 min expiry, mean weight for unknown nodes";
    }

    @Override
    public Set<PolicyInput> inputs() {
        return INPUTS;
    }

    @Override
    public List<String> validate(PolicyOptions options) {
        return OrcaWeights.validate(options);
    }

    /**
     * A58's {@code weight_update_period}: without it a weight would leave its blackout, or expire, only when
     * the next sample or flag change rebuilds the picker, and never while every agent is silent.
     */
    @Override
    public long rebuildPeriodMillis(PolicyOptions options) {
        return OrcaWeights.updatePeriodMillis(options);
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        OrcaWeightMemory before = previous instanceof OrcaWrrPicker p ? p.memory : null;
        OrcaWeightMemory memory = OrcaWeightMemory.of(snapshot, before, env.nanoClock().getAsLong(),
                OrcaWeights.from(env.options()));
        int[] weights = schedulingWeights(memory.weights);
        EdfCycle cycle = new EdfCycle(snapshot, weights, env.random().nextInt(Integer.MAX_VALUE));
        return new OrcaWrrPicker(cycle, new ArgminPicker(snapshot, ActiveConnectionsLoad.INSTANCE), memory);
    }

    /**
     * Integer weights for the cycle: nodes without a weight take the mean of the others; with fewer than two
     * weighted nodes, all 1 (round robin). Scaled so the heaviest is {@link #RESOLUTION}.
     */
    static int[] schedulingWeights(double[] weights) {
        int[] scaled = new int[weights.length];
        double sum = 0;
        double max = 0;
        int weighted = 0;
        for (double w : weights) {
            if (w > 0) {
                sum += w;
                max = Math.max(max, w);
                weighted++;
            }
        }
        if (weighted < 2) {
            java.util.Arrays.fill(scaled, 1);
            return scaled;
        }
        double mean = sum / weighted;
        for (int i = 0; i < weights.length; i++) {
            double w = weights[i] > 0 ? weights[i] : mean;
            scaled[i] = (int) Math.max(1, Math.round(w / max * RESOLUTION));
        }
        return scaled;
    }
}
