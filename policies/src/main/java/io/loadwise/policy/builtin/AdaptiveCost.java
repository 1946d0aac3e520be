package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.NodeView;

/**
 * The adaptive policy's load signal: the cost of one more request on a node (formula and constants in
 * {@link AdaptivePolicy} and docs/policies.md). Agent-derived headroom and saturation are computed once
 * per build; in-flight work, the peak-EWMA response time, the sample's age and the slow-start ramp are
 * read at each pick. Allocation-free.
 */
final class AdaptiveCost {

    /** Headroom of a node at load 99.x: it still takes work, at a hundredth of an idle node's rate (as jvm-aware). */
    static final double MIN_HEADROOM = 0.01;
    /** A node's latency counts as at least this fraction of its rival's: see {@link #cheaper}. */
    static final double LATENCY_FLOOR = 0.25;
    /** Weight of a node that has just joined, as a fraction of its full weight (Envoy's default 10 %). */
    static final double SLOW_START_MIN = 0.1;

    private final ClusterSnapshot nodes;
    private final AdaptiveSettings settings;
    private final AdaptiveMemory memory;
    /** Per node: 1 - load/100 from the sample at build time, at least {@link #MIN_HEADROOM}; NaN when unknown. */
    private final double[] headroom;
    private final boolean[] saturated;
    /** Mean headroom of the known, unsaturated nodes: what an unknown or faded node counts with; 1 if none. */
    private final double averageHeadroom;

    AdaptiveCost(ClusterSnapshot nodes, AdaptiveSettings settings, AdaptiveMemory memory) {
        this.nodes = nodes;
        this.settings = settings;
        this.memory = memory;
        int n = nodes.size();
        this.headroom = new double[n];
        this.saturated = new boolean[n];
        double sum = 0;
        int known = 0;
        for (int i = 0; i < n; i++) {
            double load = settings.load().load(memory.samples[i]);
            saturated[i] = load >= JvmAwareLoad.SATURATED;
            headroom[i] = Double.isNaN(load) ? Double.NaN
                    : Math.max(MIN_HEADROOM, (JvmAwareLoad.SATURATED - load) / JvmAwareLoad.SATURATED);
            if (!Double.isNaN(load) && !saturated[i]) {
                sum += headroom[i];
                known++;
            }
        }
        this.averageHeadroom = known == 0 ? 1 : sum / known;
    }

    /** Saturated at its sample, as long as that sample has not faded out. */
    boolean excluded(int i, long now) {
        return saturated[i] && now - memory.sampleSeenNanos[i] < settings.fadeEndNanos();
    }

    /**
     * Whether node {@code a} costs no more than node {@code b}: compares
     * {@code (active + 1) × latency / (headroom × ramp × weight)} by cross-multiplication.
     *
     * <p>Latency is the peak-EWMA response time, but at least {@link #LATENCY_FLOOR} of the rival's: a
     * node whose average has decayed towards 0 (idle for a long time) or that has not answered yet may
     * look at most four times as fast as its rival, so it takes at most about four times the rival's
     * requests in flight before its first response corrects the estimate, instead of every request of a
     * burst. When neither node has answered, latency drops out and the in-flight counts decide.
     */
    boolean cheaper(int a, int b, long now) {
        NodeView na = nodes.node(a);
        NodeView nb = nodes.node(b);
        double ea = na.peakEwmaResponseMillis();
        double eb = nb.peakEwmaResponseMillis();
        double la = Math.max(ea, eb * LATENCY_FLOOR);
        double lb = Math.max(eb, ea * LATENCY_FLOOR);
        if (!(la > 0)) { // neither has answered (or a view reported NaN)
            la = 1;
            lb = 1;
        }
        double left = (na.activeConnections() + 1.0) * la * capacity(b, nb, now);
        double right = (nb.activeConnections() + 1.0) * lb * capacity(a, na, now);
        return left <= right;
    }

    /** Headroom × slow-start ramp × configured weight. */
    private double capacity(int i, NodeView node, long now) {
        return headroom(i, now) * ramp(i, now) * Math.max(1, node.weight());
    }

    /**
     * The sampled headroom while the sample is younger than {@code agentFadeStartMs}; then it moves
     * linearly to the cluster's average, reached at {@code agentFadeEndMs}. With every sample faded, all
     * nodes count the same headroom and the cost is least requests weighted by latency.
     */
    double headroom(int i, long now) {
        double own = headroom[i];
        if (Double.isNaN(own)) {
            return averageHeadroom;
        }
        long age = now - memory.sampleSeenNanos[i];
        if (age <= settings.fadeStartNanos()) {
            return own;
        }
        if (age >= settings.fadeEndNanos()) {
            return averageHeadroom;
        }
        double trust = (double) (settings.fadeEndNanos() - age) / (settings.fadeEndNanos() - settings.fadeStartNanos());
        return averageHeadroom + trust * (own - averageHeadroom);
    }

    /** Slow start: from {@link #SLOW_START_MIN} up to 1, linearly over {@code slowStartMs}. */
    double ramp(int i, long now) {
        long start = memory.rampStartNanos[i];
        if (start == AdaptiveMemory.NOT_RAMPING) {
            return 1;
        }
        long elapsed = now - start;
        if (elapsed >= settings.slowStartNanos()) {
            return 1;
        }
        return Math.max(SLOW_START_MIN, (double) Math.max(0, elapsed) / settings.slowStartNanos());
    }
}
