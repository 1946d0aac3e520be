package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.metrics.TrafficCounters;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;

/**
 * Counts the bytes on the wire of one connection, before decoding and after encoding.
 *
 * <p>On a client connection bytes read are the cluster's bytes in; on a backend connection bytes
 * written are the node's bytes in (what clients sent it) and bytes read its bytes out.
 */
final class TrafficMeter extends ChannelDuplexHandler {

    private final TrafficCounters counters;
    private final boolean clientSide;

    TrafficMeter(TrafficCounters counters, boolean clientSide) {
        this.counters = counters;
        this.clientSide = clientSide;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf buf) {
            if (clientSide) {
                counters.bytesIn(buf.readableBytes());
            } else {
                counters.bytesOut(buf.readableBytes());
            }
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof ByteBuf buf) {
            if (clientSide) {
                counters.bytesOut(buf.readableBytes());
            } else {
                counters.bytesIn(buf.readableBytes());
            }
        }
        ctx.write(msg, promise);
    }
}
