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
     * Stops accepting and closes the listening socket. Connections already open finish or are closed
     * by their own timeouts. Blocks until the listening socket is closed.
     */
    @Override
    void close();
}
