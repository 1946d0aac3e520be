package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The shared selector of every "least something" policy: picks the usable node with the lowest
 * {@link NodeLoad}, in one allocation-free pass over the snapshot.
 *
 * <p>Ties rotate: each pick starts its scan at the next offset of a shared counter and keeps the first
 * node it meets among equals, so equally loaded nodes take turns instead of the lowest index winning
 * every time (which would herd all traffic onto node 0 between counter updates). With k tied nodes out
 * of n the shares are exactly equal when all n nodes tie, and otherwise depend on the gaps between the
 * tied positions; this is the price of a deterministic, random-free tie-break.
 *
 * <p>{@code avoid} is returned only when it is the one usable, non-excluded node left.
 */
final class ArgminPicker implements Picker {

    private final ClusterSnapshot nodes;
    private final NodeLoad load;
    private final AtomicInteger rotation = new AtomicInteger();

    ArgminPicker(ClusterSnapshot nodes, NodeLoad load) {
        this.nodes = nodes;
        this.load = load;
    }

    @Override
    public NodeView pick(NodeView avoid) {
        int n = nodes.size();
        int start = n == 1 ? 0 : Integer.remainderUnsigned(rotation.getAndIncrement(), n);
        NodeView best = null;
        int bestRank = NodeLoad.EXCLUDED;
        NodeView avoided = null;
        for (int k = 0; k < n; k++) {
            int i = start + k;
            if (i >= n) {
                i -= n;
            }
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
            if (best == null || rank < bestRank || (rank == bestRank && load.compare(node, best, rank) < 0)) {
                best = node;
                bestRank = rank;
            }
        }
        return best != null ? best : avoided;
    }
}
