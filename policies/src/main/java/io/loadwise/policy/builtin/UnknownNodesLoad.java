package io.loadwise.policy.builtin;

import io.loadwise.policy.NodeView;

/**
 * Load signal over the nodes an agent-driven policy cannot judge (NaN in the policy's per-node values):
 * live active connections. The nodes it can judge are {@link NodeLoad#EXCLUDED} here; another selector
 * serves them.
 */
final class UnknownNodesLoad implements NodeLoad {

    private final boolean[] unknown;

    /** @param values the policy's per-node values; NaN marks an unknown node */
    UnknownNodesLoad(double[] values) {
        this.unknown = new boolean[values.length];
        for (int i = 0; i < values.length; i++) {
            unknown[i] = Double.isNaN(values[i]);
        }
    }

    @Override
    public int rank(NodeView node) {
        return unknown[node.index()] ? 0 : EXCLUDED;
    }

    @Override
    public int compare(NodeView a, NodeView b, int rank) {
        return Integer.compare(a.activeConnections(), b.activeConnections());
    }
}
