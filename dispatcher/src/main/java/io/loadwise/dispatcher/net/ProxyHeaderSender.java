package io.loadwise.dispatcher.net;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.haproxy.HAProxyCommand;
import io.netty.handler.codec.haproxy.HAProxyMessage;
import io.netty.handler.codec.haproxy.HAProxyMessageEncoder;
import io.netty.handler.codec.haproxy.HAProxyProtocolVersion;
import io.netty.handler.codec.haproxy.HAProxyProxiedProtocol;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * A cluster's {@code sendProxyProtocol}: the client's PROXY header, written first on a node connection with
 * Netty's {@link HAProxyMessageEncoder}. The source is {@link ClientAddress#of} (a header read from a balancer
 * is passed on), the destination the address the client connected to. Mixed families are sent as IPv6, the
 * IPv4 side mapped; an address that is not IP is sent as v1 UNKNOWN or v2 LOCAL.
 */
public final class ProxyHeaderSender {

    private ProxyHeaderSender() {
    }

    /** The header for {@code client}'s connection, {@code "v1"} or {@code "v2"}. The caller releases it (or writes it). */
    public static HAProxyMessage header(String version, Channel client) {
        HAProxyProtocolVersion v = "v1".equals(version) ? HAProxyProtocolVersion.V1 : HAProxyProtocolVersion.V2;
        SocketAddress from = ClientAddress.of(client);
        SocketAddress to = client.localAddress();
        if (client.parent() != null && !(client.parent() instanceof io.netty.channel.ServerChannel)) {
            to = client.parent().localAddress(); // an HTTP/2 stream: the connection's
        }
        if (!(from instanceof InetSocketAddress src) || !(to instanceof InetSocketAddress dst)
                || src.getAddress() == null || dst.getAddress() == null) {
            return v == HAProxyProtocolVersion.V1
                    ? new HAProxyMessage(v, HAProxyCommand.PROXY, HAProxyProxiedProtocol.UNKNOWN, null, null, 0, 0)
                    : new HAProxyMessage(v, HAProxyCommand.LOCAL, HAProxyProxiedProtocol.UNKNOWN, null, null, 0, 0);
        }
        boolean four = src.getAddress() instanceof Inet4Address && dst.getAddress() instanceof Inet4Address;
        return new HAProxyMessage(v, HAProxyCommand.PROXY, four ? HAProxyProxiedProtocol.TCP4 : HAProxyProxiedProtocol.TCP6,
                text(src, four), text(dst, four), src.getPort(), dst.getPort());
    }

    private static String text(InetSocketAddress a, boolean four) {
        String host = a.getAddress().getHostAddress();
        if (!four && a.getAddress() instanceof Inet4Address) {
            return "::ffff:" + host;
        }
        int zone = host.indexOf('%');
        return zone < 0 ? host : host.substring(0, zone);
    }

    /**
     * Writes the header as the first bytes on {@code node} (not flushed: the caller's next flush carries it).
     * The encoder leaves the pipeline once the header is written.
     */
    public static ChannelFuture write(String version, Channel client, Channel node) {
        ChannelPipeline p = node.pipeline();
        p.addFirst("proxy-header-encoder", HAProxyMessageEncoder.INSTANCE);
        return node.write(header(version, client)).addListener(f -> {
            if (p.get("proxy-header-encoder") != null) {
                p.remove("proxy-header-encoder");
            }
        });
    }
}
