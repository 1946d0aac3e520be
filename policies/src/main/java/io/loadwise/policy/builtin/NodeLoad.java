package io.loadwise.policy.builtin;

import io.loadwise.policy.NodeView;

/**
 * The load signal half of "policy = selector × load signal": how {@link ArgminPicker} orders nodes.
 *
 * <p>Nodes are first grouped by {@link #rank}: a node of a lower rank always beats one of a higher rank
 * (rank 0 is "known load", higher ranks are fallbacks such as "no fresh agent metrics"). Within one
 * rank, {@link #compare} decides. Both are called on the pick path and must not allocate.
 */
interface NodeLoad {

    /** Rank of a node that must not be picked at all, not even as a last resort. */
    int EXCLUDED = Integer.MAX_VALUE;

    /** The node's tier: lower is preferred; {@link #EXCLUDED} removes it from selection. */
    int rank(NodeView node);

    /** Negative when {@code a} carries less load than {@code b}; both have rank {@code rank}. */
    int compare(NodeView a, NodeView b, int rank);

    /**
     * Whether the order within a rank is one number, {@link #key}. The selector then reads each node's key once
     * per pick and compares numbers, instead of calling {@link #compare} on both sides of every comparison: for
     * loads whose reading costs more than a field load (a response-time window). {@link #compare} must order
     * nodes as their keys do.
     */
    default boolean keyed() {
        return false;
    }

    /** The node's load within {@code rank} as a number, lower is less; only called when {@link #keyed()}. */
    default double key(NodeView node, int rank) {
        throw new UnsupportedOperationException("not a keyed load");
    }

    /**
     * Whether {@link #rank} and the rank-0 {@link #compare} depend only on values fixed when the load
     * was built (agent-derived loads). The selector then sorts the rank-0 nodes once, at build time.
     */
    default boolean frozenRankZero() {
        return false;
    }
}
