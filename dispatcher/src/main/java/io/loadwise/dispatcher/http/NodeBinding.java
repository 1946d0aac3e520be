package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.cluster.NodeState;
import io.netty.channel.Channel;

/**
 * {@code balance: per-connection} (TDCR-04): the node and node connection one client connection is bound
 * to, from its first request until it closes or the binding breaks. One per client connection, shared by
 * the stages that use it: {@link NodeChoice} prefers its node, {@link PooledConnections} reuses its connection,
 * {@link NodeConnection} binds and releases it.
 *
 * <p>A bound node counts one assignment for the whole binding (not one per request), so connection-based
 * policies see the client, not its requests.
 */
final class NodeBinding {

    private NodeState node;
    private Channel channel;

    /** The bound connection when it still serves {@code target}, or {@code null}. */
    Channel channelFor(NodeState target) {
        return node == target && channel != null && channel.isActive() ? channel : null;
    }

    /** The bound node if it can still take the client's next request, or {@code null}. */
    NodeState usableNode() {
        return node != null && channel != null && channel.isActive() && node.keepsPinnedWork() ? node : null;
    }

    boolean holds(Channel candidate) {
        return candidate != null && candidate == channel;
    }

    boolean bound() {
        return node != null;
    }

    void bind(NodeState boundNode, Channel boundChannel) {
        node = boundNode;
        channel = boundChannel;
        boundNode.assignmentStarted();
    }

    /**
     * Ends the binding. Its connection goes back to the pool when {@code returnToPool} and it is not
     * {@code inUse} by a running exchange (which then closes or recycles it itself).
     */
    void release(boolean returnToPool, Channel inUse) {
        if (node != null) {
            node.assignmentEnded();
            node = null;
        }
        Channel released = channel;
        channel = null;
        if (released != null && released != inUse) {
            BackendHandler handler = BackendHandler.of(released);
            handler.detach();
            if (returnToPool) {
                handler.pool().release(released);
            } else {
                released.close();
            }
        }
    }
}
