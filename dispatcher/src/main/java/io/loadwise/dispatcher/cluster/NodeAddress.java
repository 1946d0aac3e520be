package io.loadwise.dispatcher.cluster;

import java.net.InetSocketAddress;

/**
 * Moved to {@link io.loadwise.dispatcher.net.NodeAddress} ({@code config} validates addresses and sits below
 * {@code cluster}). Kept only for {@code tcp.TcpProxyServer}, which another branch is rewriting; delete this
 * class once that imports the {@code net} one.
 *
 * @deprecated use {@link io.loadwise.dispatcher.net.NodeAddress}
 */
@Deprecated(forRemoval = true)
public final class NodeAddress {

    private NodeAddress() {
    }

    /** See {@link io.loadwise.dispatcher.net.NodeAddress#parse(String)}. */
    public static InetSocketAddress parse(String address) {
        return io.loadwise.dispatcher.net.NodeAddress.parse(address);
    }

    /** See {@link io.loadwise.dispatcher.net.NodeAddress#parseListen(String)}. */
    public static InetSocketAddress parseListen(String address) {
        return io.loadwise.dispatcher.net.NodeAddress.parseListen(address);
    }
}
