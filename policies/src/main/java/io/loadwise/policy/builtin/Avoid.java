package io.loadwise.policy.builtin;

import io.loadwise.policy.NodeView;

/** The {@code avoid} argument of {@link io.loadwise.policy.Picker#pick}, matched robustly. */
final class Avoid {

    private Avoid() {
    }

    /**
     * Whether {@code node} is the node to avoid. The dispatcher normally passes a node of the current
     * snapshot, but a retry may straddle a snapshot swap, so a node of an older snapshot with the same
     * name matches too (names are unique within a cluster).
     */
    static boolean matches(NodeView node, NodeView avoid) {
        return avoid != null && (node == avoid || node.name().equals(avoid.name()));
    }
}
