package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The shared selector of every "least something" policy: picks the usable node with the lowest
 * {@link NodeLoad}, allocation-free.
 *
 * <p>Live loads (connections, response times) are found with one pass over the snapshot. Frozen loads
 * ({@link NodeLoad#frozenRankZero()}, computed from agent samples at build time) are sorted once here,
 * so a pick walks the sorted groups and usually stops at the first; only when no rank-0 node is usable
 * does it fall back to the pass over the rest.
 *
 * <p>Ties rotate: when k usable nodes share the lowest load, a shared counter picks the
 * (counter mod k)-th of them, so k equally loaded nodes take exactly one turn each in k picks instead
 * of the lowest index winning every time (which would herd all traffic onto one node between counter
 * updates). Starting the scan at a rotating offset would save the second pass that a tie costs, but
 * favours a tied node that follows a long run of non-tied ones. The counter is touched only on ties.
 *
 * <p>{@code avoid} is returned only when it is the one usable, non-excluded node left.
 */
final class ArgminPicker implements Picker {

    private final ClusterSnapshot nodes;
    private final NodeLoad load;
    private final AtomicInteger tieCounter = new AtomicInteger();
    /** Rank-0 nodes by ascending frozen load, or {@code null} for live loads. */
    private final NodeView[] sorted;
    /** Start of each group of equal loads in {@link #sorted}, plus its length as the last entry. */
    private final int[] groupStarts;

    ArgminPicker(ClusterSnapshot nodes, NodeLoad load) {
        this.nodes = nodes;
        this.load = load;
        if (!load.frozenRankZero()) {
            this.sorted = null;
            this.groupStarts = null;
            return;
        }
        NodeView[] rankZero = new NodeView[nodes.size()];
        int count = 0;
        for (int i = 0; i < nodes.size(); i++) {
            if (load.rank(nodes.node(i)) == 0) {
                rankZero[count++] = nodes.node(i);
            }
        }
        this.sorted = Arrays.copyOf(rankZero, count);
        Arrays.sort(sorted, (a, b) -> load.compare(a, b, 0)); // stable: ties keep configuration order
        int[] starts = new int[count + 1];
        int groups = 0;
        for (int i = 0; i < count; i++) {
            if (i == 0 || load.compare(sorted[i - 1], sorted[i], 0) != 0) {
                starts[groups++] = i;
            }
        }
        starts[groups++] = count;
        this.groupStarts = Arrays.copyOf(starts, groups);
    }

    @Override
    public NodeView pick(NodeView avoid) {
        if (sorted != null) {
            NodeView node = pickSorted(avoid);
            if (node != null) {
                return node;
            }
        }
        return scan(avoid);
    }

    /** The first group of frozen loads with a usable node not to avoid; rotates inside the group. */
    private NodeView pickSorted(NodeView avoid) {
        for (int g = 0; g + 1 < groupStarts.length; g++) {
            int from = groupStarts[g];
            int to = groupStarts[g + 1];
            if (to - from == 1) {
                NodeView node = sorted[from];
                if (node.selectable() && !Avoid.matches(node, avoid)) {
                    return node;
                }
                continue;
            }
            int eligible = 0;
            for (int i = from; i < to; i++) {
                eligible += sorted[i].selectable() && !Avoid.matches(sorted[i], avoid) ? 1 : 0;
            }
            if (eligible > 0) {
                int target = eligible == 1 ? 0 : (tieCounter.getAndIncrement() & Integer.MAX_VALUE) % eligible;
                NodeView first = null;
                for (int i = from; i < to; i++) {
                    NodeView node = sorted[i];
                    if (node.selectable() && !Avoid.matches(node, avoid)) {
                        if (target-- == 0) {
                            return node;
                        }
                        first = first == null ? node : first;
                    }
                }
                if (first != null) {
                    return first; // a node went down between the two passes
                }
            }
        }
        return null;
    }

    /**
     * One pass over all nodes by rank, then load. Up to 64 nodes the tied positions are remembered in a
     * bit mask, so rotating among them costs no second pass; larger clusters re-scan for the n-th tie.
     */
    private NodeView scan(NodeView avoid) {
        int n = nodes.size();
        boolean keyed = load.keyed();
        NodeView best = null;
        int bestRank = NodeLoad.EXCLUDED;
        double bestKey = 0; // meaningful only when keyed
        int ties = 0;
        long tieMask = 0; // meaningful only when n <= 64
        NodeView avoided = null;
        for (int i = 0; i < n; i++) {
            NodeView node = nodes.node(i);
            if (!node.selectable()) {
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
            int order;
            double key = 0;
            if (best == null || rank < bestRank) {
                order = -1;
                key = keyed ? load.key(node, rank) : 0;
            } else if (rank > bestRank) {
                order = 1;
            } else if (keyed) {
                key = load.key(node, rank);
                order = Double.compare(key, bestKey);
            } else {
                order = load.compare(node, best, rank);
            }
            if (order < 0) {
                best = node;
                bestRank = rank;
                bestKey = key;
                ties = 1;
                tieMask = 1L << i;
            } else if (order == 0) {
                ties++;
                tieMask |= 1L << i;
            }
        }
        if (best == null) {
            return avoided;
        }
        if (ties == 1) {
            return best;
        }
        int target = (tieCounter.getAndIncrement() & Integer.MAX_VALUE) % ties;
        if (n > Long.SIZE) {
            return nthTie(best, bestRank, target, avoid);
        }
        for (; target > 0; target--) {
            tieMask &= tieMask - 1; // drop the lowest tied position
        }
        return nodes.node(Long.numberOfTrailingZeros(tieMask));
    }

    /** The {@code target}-th node (0-based) tied with {@code best}; {@code best} if counters moved meanwhile. */
    private NodeView nthTie(NodeView best, int bestRank, int target, NodeView avoid) {
        int n = nodes.size();
        for (int i = 0; i < n; i++) {
            NodeView node = nodes.node(i);
            if (node.selectable() && !Avoid.matches(node, avoid) && load.rank(node) == bestRank
                    && (node == best || load.compare(node, best, bestRank) == 0) && target-- == 0) {
                return node;
            }
        }
        return best;
    }
}
