package io.loadwise.dispatcher.acquire;

import io.loadwise.dispatcher.cluster.NodeState;
import io.netty.channel.Channel;

/**
 * Where a {@link NodeAcquisition} gets a connection to the node it chose: pooled keep-alive connections
 * with an HTTP pipeline for L7, a fresh connection per tunnel for L4. Used only on the requester's event
 * loop.
 */
public interface NodeConnector {

    /** Whoever asked for a connection; called on the connector's event loop, once per {@link #open}. */
    interface Waiter {
        void onBackendReady(Channel backend);

        void onBackendFailed(Throwable cause);
    }

    /** Hands {@code waiter} a connection to {@code node}: now, after connecting, or when one is free. */
    void open(NodeState node, Waiter waiter);

    /** {@code waiter} no longer waits in line for {@code node} (its request ended). */
    void cancel(NodeState node, Waiter waiter);

    /** A connection that came for nobody (its request ended meanwhile): pooled again, or closed. */
    void giveBack(Channel channel);

    /** The node {@code channel} is connected to, so that a late connection is told from the awaited one. */
    NodeState nodeOf(Channel channel);
}
