package io.loadwise.dispatcher.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.loadwise.dispatcher.http.codec.ClientCodec;
import io.loadwise.dispatcher.http.codec.NodeCodec;
import io.loadwise.dispatcher.metrics.TrafficCounters;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;

/**
 * Relays raw bytes to the peer channel once an {@code Upgrade} succeeded (101): one instance on the
 * client side, one on the backend side. Backpressure toggles the peer's auto-read by writability.
 */
final class TunnelRelay extends ChannelInboundHandlerAdapter {

    private final Channel peer;
    private final TrafficCounters closeCounts;

    /** @param closeCounts counters whose connection is closed with this channel, or {@code null} */
    TunnelRelay(Channel peer, TrafficCounters closeCounts) {
        this.peer = peer;
        this.closeCounts = closeCounts;
    }

    /**
     * Replaces the HTTP handlers of both connections by relays, after the 101 went out. The codecs go
     * last: removing a decoder passes on the bytes it had buffered, which belong to the new protocol. A codec
     * that counted the bytes leaves a plain meter in its place, so the tunnel's bytes still count.
     */
    static void install(Channel client, Channel backend, TrafficCounters clientCounts) {
        backend.pipeline().replace(BackendHandler.NAME, "tunnel", new TunnelRelay(client, null));
        client.pipeline().replace(HttpProxyServer.FRONTEND, "tunnel", new TunnelRelay(backend, clientCounts));
        NodeCodec nodeCodec = backend.pipeline().get(NodeCodec.class);
        TrafficMeter.replaceCodec(backend.pipeline(), nodeCodec, nodeCodec.nodeCounts(), false);
        ClientCodec clientCodec = client.pipeline().get(ClientCodec.class);
        TrafficMeter.replaceCodec(client.pipeline(), clientCodec, clientCodec.wireCounts(), true);
        client.config().setAutoRead(backend.isWritable());
        backend.config().setAutoRead(client.isWritable());
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (peer.isActive()) {
            peer.write(msg, peer.voidPromise());
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        peer.flush();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        peer.config().setAutoRead(ctx.channel().isWritable());
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (closeCounts != null) {
            closeCounts.connectionClosed();
        }
        closeOnFlush(peer);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent) {
            ctx.close();
        }
        ReferenceCountUtil.release(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }

    static void closeOnFlush(Channel channel) {
        if (channel.isActive()) {
            channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
