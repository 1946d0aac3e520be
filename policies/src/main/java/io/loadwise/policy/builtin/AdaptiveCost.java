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
    /**
     * The most one node's sampled headroom may count over another's: at most 4 times (as
     * {@link #LATENCY_FLOOR}). A sample is up to a period and a half old when it is read; a node that
     * looked 100 times freer than its rivals would take 100 times their in-flight work before the next
     * sample could correct it (the herd). Bounded, the live in-flight count decides within a factor 4.
     */
    static final double HEADROOM_SPREAD = 4;
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
        double best = MIN_HEADROOM;
        for (int i = 0; i < n; i++) {
            double load = settings.load().load(memory.samples[i]);
            saturated[i] = memory.saturated[i];
            headroom[i] = Double.isNaN(load) ? Double.NaN
                    : Math.max(MIN_HEADROOM, (JvmAwareLoad.SATURATED - load) / JvmAwareLoad.SATURATED);
            if (!Double.isNaN(load) && !saturated[i]) {
                sum += headroom[i];
                known++;
                best = Math.max(best, headroom[i]);
            }
        }
        double floor = best / HEADROOM_SPREAD;
        for (int i = 0; i < n; i++) {
            headroom[i] = Math.max(floor, headroom[i]); // NaN stays NaN
        }
        this.averageHeadroom = known == 0 ? 1 : Math.max(floor, sum / known);
    }

    /**
     * Saturated at its sample (queue or heap over its threshold), the sample has not faded out, and the
     * node has at least as much work in flight now as when the sample arrived.
     *
     * <p>Why the last condition: the sample is up to a period and a half old. It says the node was full
     * at about the work it had then; while it still has that much, one more request would find it as
     * full, so it gets none. Once some of that work has finished (connections closed, requests
     * answered), it takes new work again up to that level, and no further until a fresh sample says it
     * has room. Excluding it for the whole sample period instead drove every new request onto the
     * nodes that happened to look unsaturated, which then refused (simulated at 60 clients: 3058-4235
     * failures per scenario, docs/policies.md). Saturation thus caps a node at its sampled work rather
     * than removing it, so it never herds; a heap that stays full keeps its node out for as long as it
     * has work, and the new sample that follows keeps it out again.
     */
    boolean excluded(int i, long now) {
        return saturated[i] && now - memory.sampleSeenNanos[i] < settings.fadeEndNanos()
                && nodes.node(i).activeConnections() >= memory.activeAtSample[i];
    }

    /**
     * Whether node {@code a} costs no more than node {@code b}. First by work in flight per capacity,
     * {@code (active + 1) / (headroom × ramp × weight)}, compared by cross-multiplication; on a tie by
     * latency.
     *
     * <p>Why latency only breaks ties: it was a factor of the cost, {@code (active + 1) × latency}, and
     * at 60 clients on three nodes of 24 slots (20 requests each on average) that failed 2086-3010
     * requests per scenario in the simulator (docs/policies.md), where the cost without it failed none
     * in three of the five scenarios. Response time already grows with the work in flight (Little's
     * law), so the product counts in-flight work twice, and the peak-EWMA jumps on one slow response,
     * which moved several requests at once onto the other nodes, beyond their slots. The live in-flight
     * count is exact; the latency is an average of the past. Latency still decides between nodes with
     * equal work per capacity (the common case at low load, where it tells a slow node from a fast one),
     * at least {@link #LATENCY_FLOOR} of the rival's: a node whose average decayed towards 0 or that has
     * not answered yet does not win every such tie by far.
     */
    boolean cheaper(int a, int b, long now) {
        NodeView na = nodes.node(a);
        NodeView nb = nodes.node(b);
        double left = (na.activeConnections() + 1.0) * capacity(b, nb, now);
        double right = (nb.activeConnections() + 1.0) * capacity(a, na, now);
        if (left != right) {
            return left < right;
        }
        double ea = na.peakEwmaResponseMillis();
        double eb = nb.peakEwmaResponseMillis();
        double la = Math.max(ea, eb * LATENCY_FLOOR);
        double lb = Math.max(eb, ea * LATENCY_FLOOR);
        return !(la > lb); // a NaN or an equal latency keeps the first node
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
