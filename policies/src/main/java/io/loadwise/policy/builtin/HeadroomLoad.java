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
 * <ul>
 *   <li>rank 0: a known load below saturation;</li>
 *   <li>rank 1: no fresh sample (load NaN), used only when no known node is usable, by active
 *       connections;</li>
 *   <li>{@link NodeLoad#EXCLUDED}: saturated (load 100), never picked.</li>
 * </ul>
 */
final class HeadroomLoad implements NodeLoad {

    /** Headroom of a node at load 99.x: it still takes connections, at a hundredth of an idle node's rate. */
    private static final double MIN_HEADROOM = 1;

    private final double[] headroom;
    private final boolean[] excluded;

    /** @param load per node index, 0..100, NaN for unknown; 100 or more is saturated */
    HeadroomLoad(double[] load) {
        this.headroom = new double[load.length];
        this.excluded = new boolean[load.length];
        for (int i = 0; i < load.length; i++) {
            excluded[i] = load[i] >= JvmAwareLoad.SATURATED;
            headroom[i] = Double.isNaN(load[i]) ? Double.NaN : Math.max(MIN_HEADROOM, JvmAwareLoad.SATURATED - load[i]);
        }
    }

    @Override
    public int rank(NodeView node) {
        int i = node.index();
        if (excluded[i]) {
            return EXCLUDED;
        }
        return Double.isNaN(headroom[i]) ? 1 : 0;
    }

    @Override
    public int compare(NodeView a, NodeView b, int rank) {
        if (rank != 0) {
            return Integer.compare(a.activeConnections(), b.activeConnections());
        }
        double left = (a.activeConnections() + 1.0) * headroom[b.index()];
        double right = (b.activeConnections() + 1.0) * headroom[a.index()];
        return Double.compare(left, right);
    }
}
