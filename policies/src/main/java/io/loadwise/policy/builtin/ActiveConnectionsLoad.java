package io.loadwise.policy.builtin;

import io.loadwise.policy.NodeView;

/** Least-connections load signal: the live {@link NodeView#activeConnections()} counter. */
enum ActiveConnectionsLoad implements NodeLoad {
    INSTANCE;

    @Override
    public int rank(NodeView node) {
        return 0;
    }

    @Override
    public int compare(NodeView a, NodeView b, int rank) {
        return Integer.compare(a.activeConnections(), b.activeConnections());
    }
}
