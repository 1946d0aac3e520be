package io.loadwise.dispatcher.cluster;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import java.util.ArrayList;
import java.util.List;

/**
 * One picker of the cluster's policy over a subset of its nodes (the nodes serving one context, or the nodes of
 * one replication domain), with the maps between the subset's own node indexes and the cluster's. Immutable and
 * built off the event loops; a pick is two array lookups and the policy's own pick, and allocates nothing.
 */
final class SubsetPicker {

    private final Picker picker;
    /** Local index to the view the picker was built over. */
    private final ContextView[] views;
    /** Cluster node index to its view here, {@code null} when the node is not in the subset. */
    private final ContextView[] byNode;

    private SubsetPicker(Picker picker, ContextView[] views, ContextView[] byNode) {
        this.picker = picker;
        this.views = views;
        this.byNode = byNode;
    }

    /**
     * @param name the picker's snapshot name ({@code cluster} and the subset's key)
     * @param clusterSize how many nodes the cluster has
     * @param members the subset's nodes, in cluster order
     * @param previous the picker this one replaces, whose state is handed on when it had the same nodes; may be
     *     {@code null}
     */
    static SubsetPicker build(String name, int clusterSize, List<NodeState> members, LoadBalancingPolicy policy,
            PolicyEnvironment environment, SubsetPicker previous) {
        List<ContextView> local = new ArrayList<>(members.size());
        ContextView[] byNode = new ContextView[clusterSize];
        for (NodeState node : members) {
            ContextView view = new ContextView(local.size(), node);
            local.add(view);
            byNode[node.index()] = view;
        }
        ContextView[] views = local.toArray(new ContextView[0]);
        Picker carried = previous != null && previous.sameNodes(views) ? previous.picker : null;
        Picker picker = policy.newPicker(new ClusterSnapshot(name, local), carried, environment);
        return new SubsetPicker(picker, views, byNode);
    }

    private boolean sameNodes(ContextView[] members) {
        if (views.length != members.length) {
            return false;
        }
        for (int i = 0; i < members.length; i++) {
            if (views[i].node() != members[i].node()) {
                return false;
            }
        }
        return true;
    }

    /**
     * A usable node of the subset other than {@code avoid} if there is one, {@code avoid} as a last resort,
     * {@code null} when none is usable.
     */
    NodeState pick(NodeState avoid) {
        ContextView avoided = avoid == null || avoid.index() >= byNode.length ? null : byNode[avoid.index()];
        NodeView chosen = picker.pick(avoided);
        return chosen == null ? null : views[chosen.index()].node();
    }

    /** Whether {@code node} is in the subset. */
    boolean contains(NodeState node) {
        return node.index() < byNode.length && byNode[node.index()] != null;
    }
}
