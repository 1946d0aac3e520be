package io.loadwise.policy.builtin;

import io.loadwise.policy.NodeView;

/**
 * Load signal of jvm-aware: the agent-derived load becomes a weight, its headroom {@code 100 - load},
 * and nodes are compared by live connections per unit of headroom, {@code (active + 1) / headroom},
 * as weighted least connections compares by static weight. HAProxy's agent-check works the same way:
 * the agent's percentage scales the server's weight and leastconn does the rest.
 *
 * <p>Why not the plain argmin of the load: the load changes only when a new agent sample arrives (every
 * 100 ms to 1 s), so between two samples every new connection went to the same node. In the sweep's
 * baseline cell that herding sent whole seconds of connections to one node (0/0/63 selections in one
 * second) and overflowed its request queue. The live count spreads the connections made between
 * samples, in proportion to each node's headroom, and with no connections yet it still picks the least
 * loaded node first.
 *
 * <p>Every node has rank 0, except one at its limit ({@link JvmAwarePolicy#limits}): {@link NodeLoad#EXCLUDED}
 * while its live connections are at least the limit. Nodes without a fresh sample come with an assumed
 * load ({@link JvmAwarePolicy}), not as a fallback rank.
 */
final class HeadroomLoad implements NodeLoad {

    /** Headroom of a node at load 99.x: it still takes connections, at a hundredth of an idle node's rate. */
    private static final double MIN_HEADROOM = 1;
    /**
     * The most one node's sampled headroom may count over another's in jvm-aware: 4 times. A stale sample
     * that made a node look 100 times freer would send it 100 times its rivals' connections (the herd).
     * Adaptive bounds it tighter (AdaptiveCost.HEADROOM_SPREAD, 1.5), with its hold-out and slot limit.
     */
    static final double SPREAD = 4;

    private final double[] headroom;
    /** Per node index: connections it may hold, NaN for no limit. */
    private final double[] limit;

    /**
     * @param load per node index, 0..100
     * @param limit per node index, the connections the node may hold (NaN: no limit)
     * @param running per node index, the share of its time its JVM is not collecting ({@link AdaptiveCost#running}),
     *        which multiplies its headroom after the spread bound
     */
    HeadroomLoad(double[] load, double[] limit, double[] running) {
        this.headroom = new double[load.length];
        this.limit = limit;
        double best = MIN_HEADROOM;
        for (int i = 0; i < load.length; i++) {
            if (Double.isNaN(load[i])) {
                throw new IllegalArgumentException("node " + i + " has no load; give unknown nodes an assumed one");
            }
            headroom[i] = Math.max(MIN_HEADROOM, JvmAwareLoad.SATURATED - load[i]);
            best = load[i] < JvmAwareLoad.SATURATED ? Math.max(best, headroom[i]) : best;
        }
        // One node's headroom counts at most SPREAD times another's, so a stale sample moves connections by
        // a bounded factor and the live count decides the rest.
        double floor = best / SPREAD;
        for (int i = 0; i < load.length; i++) {
            headroom[i] = Math.max(floor, headroom[i]) * running[i];
        }
    }

    @Override
    public int rank(NodeView node) {
        double l = limit[node.index()];
        return !Double.isNaN(l) && node.activeConnections() >= l ? EXCLUDED : 0;
    }

    @Override
    public int compare(NodeView a, NodeView b, int rank) {
        double left = (a.activeConnections() + 1.0) * headroom[b.index()];
        double right = (b.activeConnections() + 1.0) * headroom[a.index()];
        return Double.compare(left, right);
    }
}
