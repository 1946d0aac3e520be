package io.loadwise.dispatcher.net;

import java.net.InetSocketAddress;

/**
 * The listening side of one virtual cluster: {@code TcpProxyServer} (L4) or {@code HttpProxyServer}
 * (L7). Created stopped; {@link #start()} binds the cluster's listen address.
 */
public interface ClusterListener extends AutoCloseable {

    /**
     * Binds and starts accepting. Blocks until bound.
     *
     * @return the address actually bound (the real port when configured as 0)
     * @throws java.io.IOException when the address cannot be bound, with the address in the message
     */
    InetSocketAddress start() throws java.io.IOException;

    /** The bound address, or {@code null} before {@link #start()}. */
    InetSocketAddress boundAddress();

    /**
     * Starts on {@code previous}'s listening socket instead of binding one (a reload that rebuilds the
     * cluster on the same address): new connections are this listener's from now on, {@code previous}
     * keeps those it accepted and no longer owns the socket. Only a listener of the same kind can take
     * over.
     *
     * @return the address of the socket taken over
     * @throws java.io.IOException when {@code previous} has no socket to hand over or is of another kind
     */
    default InetSocketAddress takeOver(ClusterListener previous) throws java.io.IOException {
        throw new java.io.IOException(getClass().getSimpleName() + " cannot take over a listening socket");
    }

    /**
     * Stops accepting (closing the socket unless it was handed over) and lets the open connections end
     * gracefully: what is in flight finishes, and an HTTP connection closes after its next response.
     * Returns at once; the connections end by themselves.
     */
    default void drain() {
        close();
    }

    /**
     * Stops accepting and closes the listening socket. Connections already open finish or are closed
     * by their own timeouts. Blocks until the listening socket is closed.
     */
    @Override
    void close();
}
