package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.acquire.NodeConnector;
import io.loadwise.dispatcher.cluster.NodeState;
import io.netty.channel.Channel;

/**
 * L7's way to a node for the {@code NodeAcquisition} of one client connection: the node connection the
 * client is bound to ({@code balance: per-connection}) while it still serves the chosen node, otherwise
 * the keep-alive pool of the connection's event loop, or with {@code sendProxyProtocol} the client connection's
 * private connections ({@link PrivateConnections}).
 */
final class PooledConnections implements NodeConnector {

    private final BackendPools pools;
    /** {@code null}: balanced per request. */
    private final NodeBinding binding;
    /** The client connection (or HTTP/2 stream) the requests come from. */
    private final Channel client;

    PooledConnections(BackendPools pools, NodeBinding binding, Channel client) {
        this.pools = pools;
        this.binding = binding;
        this.client = client;
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
        pools.pool(node, client).acquire(waiter);
    }

    @Override
    public void cancel(NodeState node, Waiter waiter) {
        pools.pool(node, client).cancel(waiter);
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
