package io.loadwise.policy;

import java.util.List;

/**
 * Immutable list of a cluster's nodes at one moment, indexed by {@link NodeView#index()}.
 * Backed by an array so that pickers iterate without allocating.
 */
public final class ClusterSnapshot {

    private final String clusterName;
    private final NodeView[] nodes;

    public ClusterSnapshot(String clusterName, List<? extends NodeView> nodes) {
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("cluster " + clusterName + " has no nodes");
        }
        this.clusterName = clusterName;
        this.nodes = nodes.toArray(new NodeView[0]);
        for (int i = 0; i < this.nodes.length; i++) {
            if (this.nodes[i].index() != i) {
                throw new IllegalArgumentException(
                        "node " + this.nodes[i].name() + " has index " + this.nodes[i].index() + ", expected " + i);
            }
        }
    }

    public String clusterName() {
        return clusterName;
    }

    public int size() {
        return nodes.length;
    }

    public NodeView node(int index) {
        return nodes[index];
    }

    /** Sum of configured weights of all nodes, usable or not. */
    public long totalWeight() {
        long total = 0;
        for (NodeView node : nodes) {
            total += node.weight();
        }
        return total;
    }
}
