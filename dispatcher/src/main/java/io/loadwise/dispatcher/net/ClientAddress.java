package io.loadwise.dispatcher.net;

import io.netty.channel.Channel;
import io.netty.channel.ServerChannel;
import io.netty.util.AttributeKey;
import java.net.SocketAddress;

/**
 * The one place that answers "who is the client of this channel". Behind a balancer speaking the PROXY
 * protocol ({@link ProxyHeaderHandler}), the client is the header's source address, kept in a channel
 * attribute; otherwise it is the TCP peer. An HTTP/2 stream channel asks its connection. A QUIC connection (HTTP/3)
 * sets the attribute to its UDP peer, since its own remote address is a connection ID. Every use of a
 * client's address (forwarding headers, rate limits, the access log, affinity, tunnels, log lines) goes
 * through {@link #of(Channel)} rather than {@code remoteAddress()}.
 */
public final class ClientAddress {

    /** The address a PROXY header named, set once by {@link ProxyHeaderHandler} before the pipeline sees data. */
    public static final AttributeKey<SocketAddress> PROXIED = AttributeKey.valueOf("loadwise.proxiedClient");

    private ClientAddress() {
    }

    /** The client's address: the PROXY header's source if there was one, else the TCP peer (may be null). */
    public static SocketAddress of(Channel channel) {
        for (Channel c = channel; c != null; c = c.parent()) {
            if (c instanceof ServerChannel) {
                break;
            }
            SocketAddress proxied = c.attr(PROXIED).get();
            if (proxied != null) {
                return proxied;
            }
            if (c.parent() == null || c.parent() instanceof ServerChannel) {
                return c.remoteAddress();
            }
        }
        return channel.remoteAddress();
    }
}
