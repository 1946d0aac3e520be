package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The selector of least-loaded and least-sessions when some nodes are "unknown" to them (no fresh agent
 * sample, or the metric missing): an unknown node gets the share of an average node. Of every n picks
 * (n = nodes in the cluster), u go to the u unknown nodes, by least connections among them, and the
 * other n - u follow the policy's argmin over the known nodes.
 *
 * <p>Why a share and not an assumed value: these policies send each pick to the single lowest node, and
 * the cluster's average is never below its minimum, so an unknown node valued at the average would never
 * be picked while one known node is usable. A node without an agent would then take no work at all.
 *
 * <p>When the group whose turn it is has no usable node (or only {@code avoid}), the other group is
 * asked; {@code avoid} comes back only when neither has anything else.
 */
final class UnknownSharePicker implements Picker {

    private final Picker known;
    private final Picker unknown;
    private final int unknownNodes;
    private final int nodes;
    private final AtomicInteger turn = new AtomicInteger();

    private UnknownSharePicker(Picker known, Picker unknown, int unknownNodes, int nodes) {
        this.known = known;
        this.unknown = unknown;
        this.unknownNodes = unknownNodes;
        this.nodes = nodes;
    }

    /**
     * The picker for one build: a plain argmin over the values when every node is known, least
     * connections when none is, and the shared picker in between.
     *
     * @param values the policy's per-node values, NaN for an unknown node
     */
    static Picker over(ClusterSnapshot snapshot, double[] values) {
        return over(snapshot, values, Double.POSITIVE_INFINITY);
    }

    /**
     * As {@link #over(ClusterSnapshot, double[])}, except that a known node whose value is at least
     * {@code saturatedFrom} is never picked (an unknown node is never saturated: nothing says it is).
     */
    static Picker over(ClusterSnapshot snapshot, double[] values, double saturatedFrom) {
        int unknownCount = 0;
        for (double v : values) {
            unknownCount += Double.isNaN(v) ? 1 : 0;
        }
        if (unknownCount == 0) {
            return new ArgminPicker(snapshot, new AgentLoad(values, saturatedFrom));
        }
        Picker byConnections = new ArgminPicker(snapshot, new UnknownNodesLoad(values));
        if (unknownCount == values.length) {
            return byConnections;
        }
        return new UnknownSharePicker(new ArgminPicker(snapshot, new AgentLoad(values, saturatedFrom)), byConnections,
                unknownCount, values.length);
    }

    @Override
    public NodeView pick(NodeView avoid) {
        boolean unknownTurn = (turn.getAndIncrement() & Integer.MAX_VALUE) % nodes < unknownNodes;
        NodeView first = (unknownTurn ? unknown : known).pick(avoid);
        if (first != null && !Avoid.matches(first, avoid)) {
            return first;
        }
        NodeView second = (unknownTurn ? known : unknown).pick(avoid);
        if (second != null && !Avoid.matches(second, avoid)) {
            return second;
        }
        return first != null ? first : second;
    }
}
