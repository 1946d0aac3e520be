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
                + " between samples by live connections per headroom; saturated nodes held at their sampled work,"
                + " busy ones at their estimated slots";
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
        JvmAwareLoad equation = JvmAwareLoad.from(env.options());
        AdaptiveMemory memory = AdaptiveMemory.of(snapshot,
                previous instanceof SaturatedFallbackPicker p ? p.memory() : null, 0, 0, equation);
        double[] load = withUnknownAsAverage(filteredLoads(memory, equation));
        double[] limit = new double[load.length];
        double[] slots = new double[load.length];
        limits(memory, limit, slots);
        double[] running = new double[load.length];
        for (int i = 0; i < running.length; i++) {
            running[i] = AdaptiveCost.running(memory.filtered[i]);
        }
        return new SaturatedFallbackPicker(new ArgminPicker(snapshot, new HeadroomLoad(load, limit, running)),
                new ArgminPicker(snapshot, new SlotFillLoad(slots)), memory);
    }

    /**
     * The connections each node may hold until the next build, as adaptive's ({@link AdaptiveCost#excluded}),
     * from the connections at the sample as {@link AdaptiveMemory} estimates them (carried across
     * rebuilds, so a rebuild that brings no new sample does not raise the limit to the live count):
     * <ul>
     *   <li>saturated (load 100, JPR-02's exclusion): the connections it has now. Excluding it until the
     *       next sample instead sent every new connection to the nodes that looked unsaturated;</li>
     *   <li>all workers busy ({@link AdaptiveCost#fill} at least {@link AdaptiveCost#FILL_FOR_ESTIMATE}):
     *       its estimated slots, {@code connections / fill}, less {@link AdaptiveCost#SLOT_MARGIN}, at least
     *       its connections at the sample ({@link AdaptiveCost#limit});</li>
     *   <li>else none (NaN).</li>
     * </ul>
     * {@code slots}: the estimate, or the limit where there is none, or NaN.
     */
    static void limits(AdaptiveMemory memory, double[] limit, double[] slots) {
        for (int i = 0; i < limit.length; i++) {
            double active = memory.activeAtSample[i];
            double estimate = AdaptiveCost.slotEstimate(memory.samples[i], active);
            limit[i] = AdaptiveCost.limit(memory.saturated[i], active, estimate);
            slots[i] = Double.isNaN(estimate) ? limit[i] : estimate;
        }
    }

    /**
     * Each node's Equation 2 load from its filtered readings ({@link ReadingFilter}), 100 where the
     * memory holds it saturated (filtered level over a threshold, confirmed by the raw reading), NaN
     * without a sample. Why not the raw sample's: one reading with 10 % noise put a busy node's heap over
     * 85 % in 93 of 996 readings and starved it for 42 seconds of a 250 s run (docs/policies.md).
     */
    static double[] filteredLoads(AdaptiveMemory memory, JvmAwareLoad equation) {
        double[] load = new double[memory.filtered.length];
        double[] variance = new double[load.length];
        for (int i = 0; i < load.length; i++) {
            double l = equation.load(memory.filtered[i]);
            load[i] = Double.isNaN(l) ? l : memory.saturated[i] ? JvmAwareLoad.SATURATED
                    : Math.min(l, ReadingFilter.BELOW_SATURATION);
            variance[i] = ReadingFilter.loadVariance(memory.tracks[i]);
        }
        ReadingFilter.shrink(load, variance);
        return load;
    }

    /**
     * Least full by {@code (connections + 1) / (slots + 1)}: the fallback when every node is at its limit
     * (a node without an estimate counts as having room).
     */
    private record SlotFillLoad(double[] slots) implements NodeLoad {
        private static final double NO_ESTIMATE = 1e9;

        @Override
        public int rank(NodeView node) {
            return 0;
        }

        @Override
        public int compare(NodeView a, NodeView b, int rank) {
            double sa = Double.isNaN(slots[a.index()]) ? NO_ESTIMATE : slots[a.index()];
            double sb = Double.isNaN(slots[b.index()]) ? NO_ESTIMATE : slots[b.index()];
            return Double.compare((a.activeConnections() + 1.0) * (sb + 1), (b.activeConnections() + 1.0) * (sa + 1));
        }
    }

    /**
     * When every node but {@code avoid} is at its limit, the least full of them all, not "no node" (the
     * dispatcher's 503). Saturation that every node shows cannot tell them apart: at 60 clients on three
     * nodes of 12 workers and a queue of 12 every node has 20 requests, a queue 67 % full, over the 55 %
     * threshold; excluding them all refused 328-2138 requests per scenario in the simulator, where any of
     * them would have queued the request.
     */
    private record SaturatedFallbackPicker(Picker unsaturated, Picker all, AdaptiveMemory memory) implements Picker {
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
