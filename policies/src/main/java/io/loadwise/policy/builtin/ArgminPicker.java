package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The shared selector of every "least something" policy: picks the usable node with the lowest
 * {@link NodeLoad}, allocation-free, in one pass over the snapshot (two when there is a tie).
 *
 * <p>Ties rotate: when k nodes share the lowest load, a shared counter picks the (counter mod k)-th of
 * them, so k equally loaded nodes take exactly one turn each in k picks, instead of the lowest index
 * winning every time (which would herd all traffic onto one node between counter updates). Starting
 * the scan at a rotating offset would be one pass cheaper but favours a tied node that follows a long
 * run of non-tied ones. The counter is touched only on ties.
 *
 * <p>{@code avoid} is returned only when it is the one usable, non-excluded node left.
 */
final class ArgminPicker implements Picker {

    private final ClusterSnapshot nodes;
    private final NodeLoad load;
    private final AtomicInteger tieCounter = new AtomicInteger();

    ArgminPicker(ClusterSnapshot nodes, NodeLoad load) {
        this.nodes = nodes;
        this.load = load;
    }

    @Override
    public NodeView pick(NodeView avoid) {
        int n = nodes.size();
        NodeView best = null;
        int bestRank = NodeLoad.EXCLUDED;
        int ties = 0;
        NodeView avoided = null;
        for (int i = 0; i < n; i++) {
            NodeView node = nodes.node(i);
            if (!node.usable()) {
                continue;
            }
            int rank = load.rank(node);
            if (rank == NodeLoad.EXCLUDED) {
                continue;
            }
            if (Avoid.matches(node, avoid)) {
                avoided = node;
                continue;
            }
            int order = best == null || rank < bestRank ? -1 : rank > bestRank ? 1 : load.compare(node, best, rank);
            if (order < 0) {
                best = node;
                bestRank = rank;
                ties = 1;
            } else if (order == 0) {
                ties++;
            }
        }
        if (best == null) {
            return avoided;
        }
        return ties == 1 ? best : nthTie(best, bestRank, Integer.remainderUnsigned(tieCounter.getAndIncrement(), ties), avoid);
    }

    /** The {@code target}-th node (0-based) tied with {@code best}; {@code best} if counters moved meanwhile. */
    private NodeView nthTie(NodeView best, int bestRank, int target, NodeView avoid) {
        int n = nodes.size();
        for (int i = 0; i < n; i++) {
            NodeView node = nodes.node(i);
            if (node.usable() && !Avoid.matches(node, avoid) && load.rank(node) == bestRank
                    && (node == best || load.compare(node, best, bestRank) == 0) && target-- == 0) {
                return node;
            }
        }
        return best;
    }
}
