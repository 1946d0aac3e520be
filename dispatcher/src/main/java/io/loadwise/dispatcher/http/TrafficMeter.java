package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.metrics.TrafficCounters;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;

/**
 * Counts the bytes on the wire of one connection, before decoding and after encoding, where no codec does:
 * before TLS on a client connection, and on connections that left HTTP/1.1 (tunnels, HTTP/2).
 *
 * <p>On a client connection bytes read are the cluster's bytes in; on a backend connection bytes
 * written are the node's bytes in (what clients sent it) and bytes read its bytes out.
 */
final class TrafficMeter extends ChannelDuplexHandler {

    static final String NAME = "meter";

    /**
     * Takes {@code codec} out of {@code pipeline} (the connection leaves HTTP/1.1: a tunnel, HTTP/2). A
     * codec that counted the connection's bytes itself ({@code counts} not {@code null}) leaves a meter in
     * its place; bytes it had buffered and passes on were counted when they were read.
     */
    static void replaceCodec(ChannelPipeline pipeline, ChannelHandler codec, TrafficCounters counts,
                             boolean clientSide) {
        if (counts == null) {
            pipeline.remove(codec);
        } else {
            pipeline.replace(codec, NAME, new TrafficMeter(counts, clientSide));
        }
    }

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
