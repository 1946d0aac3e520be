package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyInput;
import io.loadwise.policy.PolicyOptions;
import java.util.List;
import java.util.Set;

/**
 * JPR-01/02 (jQoStdV1), departing from the seed: the seed sends each request to the node with the least
 * {@link JvmAwareLoad} (Equation 2; kept as {@link JvmAwareClassicPolicy}). Here that load, computed from
 * the agent samples when the picker is built, becomes a weight for the connections each node has taken
 * since ({@link HeadroomLoad}: fewest {@code (active + 1) / (100 - load)}); ties rotate. Saturated
 * nodes (load 100) are never picked,
 * not even as a last resort: if every node is saturated or down the pick returns {@code null} and the
 * dispatcher refuses the request rather than push a server into failure.
 *
 * <p>A node without fresh metrics is "unknown" and counts as an average node: its load is the mean load
 * of the known, unsaturated nodes, so it takes connections in proportion to an average headroom. When no
 * such node exists, the unknown nodes share one assumed load and are picked by least connections. An
 * unknown node is never excluded as saturated: nothing says it is.
 */
public final class JvmAwarePolicy implements LoadBalancingPolicy {

    private static final Set<PolicyInput> INPUTS = Set.of(PolicyInput.AGENT_METRICS);

    /** The load assumed for unknown nodes when no known node is below saturation. */
    static final double UNKNOWN_ALONE_LOAD = 50;

    @Override
    public String id() {
        return "jvm-aware";
    }

    @Override
    public String description() {
        return "JVM-aware (jQoStdV1, departs from the seed's argmin): least mean of CPU, I/O wait, queue, threads, JDBC and heap use, spread"
                + " between samples by live connections per headroom; excludes saturated nodes";
    }

    @Override
    public Set<PolicyInput> inputs() {
        return INPUTS;
    }

    @Override
    public List<String> validate(PolicyOptions options) {
        return JvmAwareLoad.validate(options);
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        double[] load = withUnknownAsAverage(JvmAwareLoad.from(env.options()).loads(snapshot));
        return new SaturatedFallbackPicker(new ArgminPicker(snapshot, new HeadroomLoad(load)),
                new ArgminPicker(snapshot, new HeadroomLoad(load, false)));
    }

    /**
     * When every node but {@code avoid} is saturated, the one with the fewest connections per headroom
     * among them all, not "no node" (the dispatcher's 503). Saturation that every node shows cannot
     * tell them apart: at 60 clients on three nodes of 12 workers and a queue of 12 every node has 20
     * requests, a queue 67 % full, over the 55 % threshold; excluding them all refused 328-2138
     * requests per scenario in the simulator, where any of them would have queued the request.
     */
    private record SaturatedFallbackPicker(Picker unsaturated, Picker all) implements Picker {
        @Override
        public NodeView pick(NodeView avoid) {
            NodeView node = unsaturated.pick(avoid);
            if (node != null && !Avoid.matches(node, avoid)) {
                return node;
            }
            NodeView fallback = all.pick(avoid);
            return fallback != null ? fallback : node;
        }
    }

    /**
     * Replaces each unknown (NaN) load by the mean of the known loads below saturation, or by
     * {@link #UNKNOWN_ALONE_LOAD} when there is none (then only unknown nodes are left to compare, and
     * any shared value makes that least connections).
     */
    static double[] withUnknownAsAverage(double[] load) {
        double sum = 0;
        int known = 0;
        for (double l : load) {
            if (!Double.isNaN(l) && l < JvmAwareLoad.SATURATED) {
                sum += l;
                known++;
            }
        }
        double assumed = known == 0 ? UNKNOWN_ALONE_LOAD : sum / known;
        double[] filled = load.clone();
        for (int i = 0; i < filled.length; i++) {
            filled[i] = Double.isNaN(filled[i]) ? assumed : filled[i];
        }
        return filled;
    }
}
