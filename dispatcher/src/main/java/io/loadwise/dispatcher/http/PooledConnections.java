package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.acquire.NodeConnector;
import io.loadwise.dispatcher.cluster.NodeState;
import io.netty.channel.Channel;

/**
 * L7's way to a node for the {@code NodeAcquisition} of one client connection: the node connection the
 * client is bound to ({@code balance: per-connection}) while it still serves the chosen node, otherwise
 * the keep-alive pool of the connection's event loop.
 */
final class PooledConnections implements NodeConnector {

    private final BackendPools pools;
    /** {@code null}: balanced per request. */
    private final NodeBinding binding;

    PooledConnections(BackendPools pools, NodeBinding binding) {
        this.pools = pools;
        this.binding = binding;
    }

    @Override
    public void open(NodeState node, Waiter waiter) {
        if (binding != null && binding.bound()) {
            Channel bound = binding.channelFor(node);
            if (bound != null) {
                waiter.onBackendReady(bound);
                return;
            }
            binding.release(true, null); // bound elsewhere, or broken: the client is bound anew
        }
        pools.pool(node).acquire(waiter);
    }

    @Override
    public void cancel(NodeState node, Waiter waiter) {
        pools.pool(node).cancel(waiter);
    }

    @Override
    public void giveBack(Channel channel) {
        BackendHandler.of(channel).pool().release(channel);
    }

    @Override
    public NodeState nodeOf(Channel channel) {
        return BackendHandler.of(channel).pool().node();
    }
}
