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
 * <p>Every node has rank 0, except a saturated one (load 100): {@link NodeLoad#EXCLUDED}, never picked.
 * Nodes without a fresh sample come with an assumed load ({@link JvmAwarePolicy}), not as a fallback rank.
 */
final class HeadroomLoad implements NodeLoad {

    /** Headroom of a node at load 99.x: it still takes connections, at a hundredth of an idle node's rate. */
    private static final double MIN_HEADROOM = 1;

    private final double[] headroom;
    private final boolean[] excluded;

    /** @param load per node index, 0..100; 100 or more is saturated, and excluded */
    HeadroomLoad(double[] load) {
        this(load, true);
    }

    /**
     * @param load per node index, 0..100; 100 or more is saturated
     * @param excludeSaturated false: a saturated node is not excluded but ranks with the least headroom
     */
    HeadroomLoad(double[] load, boolean excludeSaturated) {
        this.headroom = new double[load.length];
        this.excluded = new boolean[load.length];
        for (int i = 0; i < load.length; i++) {
            if (Double.isNaN(load[i])) {
                throw new IllegalArgumentException("node " + i + " has no load; give unknown nodes an assumed one");
            }
            excluded[i] = excludeSaturated && load[i] >= JvmAwareLoad.SATURATED;
            headroom[i] = Math.max(MIN_HEADROOM, JvmAwareLoad.SATURATED - load[i]);
        }
    }

    @Override
    public int rank(NodeView node) {
        return excluded[node.index()] ? EXCLUDED : 0;
    }

    @Override
    public int compare(NodeView a, NodeView b, int rank) {
        double left = (a.activeConnections() + 1.0) * headroom[b.index()];
        double right = (b.activeConnections() + 1.0) * headroom[a.index()];
        return Double.compare(left, right);
    }
}
