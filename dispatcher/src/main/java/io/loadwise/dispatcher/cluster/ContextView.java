package io.loadwise.dispatcher.cluster;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.NodeView;

/**
 * A cluster node as one {@link SubsetPicker} sees it (the nodes of a context, or of a replication domain): the
 * node's live state under the index it has in that subset (policies index their arrays by {@link NodeView#index()}).
 */
final class ContextView implements NodeView {

    private final int index;
    private final NodeState node;

    ContextView(int index, NodeState node) {
        this.index = index;
        this.node = node;
    }

    NodeState node() {
        return node;
    }

    @Override
    public int index() {
        return index;
    }

    @Override
    public String name() {
        return node.name();
    }

    @Override
    public int weight() {
        return node.weight();
    }

    @Override
    public boolean enabled() {
        return node.enabled();
    }

    @Override
    public boolean healthy() {
        return node.healthy();
    }

    @Override
    public boolean usable() {
        return node.usable();
    }

    @Override
    public int activeConnections() {
        return node.activeConnections();
    }

    @Override
    public int inFlightRequests() {
        return node.inFlightRequests();
    }

    @Override
    public double recentResponseTimeMillis() {
        return node.recentResponseTimeMillis();
    }

    @Override
    public double peakEwmaResponseMillis() {
        return node.peakEwmaResponseMillis();
    }

    @Override
    public AgentSample agentSample() {
        return node.agentSample();
    }

    @Override
    public String toString() {
        return node.toString();
    }
}
