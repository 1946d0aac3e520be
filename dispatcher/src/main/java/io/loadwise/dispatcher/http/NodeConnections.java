package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.acquire.NodeConnector;
import io.loadwise.dispatcher.cluster.NodeState;
import io.netty.channel.Channel;

/**
 * Where the requests of one event loop get their way to one node: a {@link NodePool} of HTTP/1.1 keep-alive
 * connections, or a {@link StreamPool} of streams on multiplexed HTTP/2 connections ({@code nodeProtocol}).
 * Either hands out a channel whose last handler is a {@link BackendHandler} and which reads and writes HTTP/1.1
 * objects, so the exchange does not know which it got. Used only on its event loop.
 */
interface NodeConnections {

    NodeState node();

    /** Hands {@code waiter} a channel now, after connecting, or when one is free. */
    void acquire(NodeConnector.Waiter waiter);

    /** Gives up waiting (the request timed out or its client left). */
    void cancel(NodeConnector.Waiter waiter);

    /** A channel whose exchange completed cleanly, or that came for nobody: reused, or closed. */
    void release(Channel channel);

    /** Closes what is idle (the listener is shutting down). */
    void closeIdle();
}
