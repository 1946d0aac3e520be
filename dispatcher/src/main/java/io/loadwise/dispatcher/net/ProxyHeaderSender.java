package io.loadwise.dispatcher.net;

import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
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

    /**
     * Makes the header {@code node}'s first bytes, for a connection whose pipeline is set before it connects (an
     * http cluster's private node connections): written at {@code channelActive}, ahead of a TLS handshake the
     * pipeline starts there, or ahead of the first thing written on it, whichever comes first (Netty completes a
     * connect's future, whose listeners may write the request, before {@code channelActive}). The header is made
     * only then, so a connection that never connects holds nothing to release.
     */
    public static void sendFirst(String version, Channel client, ChannelPipeline node) {
        node.addFirst("proxy-header", new FirstBytes(version, client));
    }

    /** The pipeline's first handler until it has written the header, which then passes only the encoder. */
    private static final class FirstBytes extends ChannelDuplexHandler {

        private final String version;
        private final Channel client;

        FirstBytes(String version, Channel client) {
            this.version = version;
            this.client = client;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            send(ctx);
            ctx.fireChannelActive();
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            send(ctx);
            ctx.write(msg, promise);
        }

        private void send(ChannelHandlerContext ctx) {
            if (ctx.isRemoved()) {
                return;
            }
            ChannelPipeline p = ctx.pipeline();
            p.addBefore(ctx.name(), "proxy-header-encoder", HAProxyMessageEncoder.INSTANCE);
            ctx.write(header(version, client)).addListener(f -> {
                if (p.get("proxy-header-encoder") != null) {
                    p.remove("proxy-header-encoder");
                }
            });
            p.remove(this);
        }
    }
}
