package io.loadwise.dispatcher.http2;

import io.loadwise.dispatcher.metrics.TrafficCounters;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The end of an HTTP/2 connection's pipeline: closes the connection when it has been idle for the
 * cluster's idle timeout with no stream open (a close sends GOAWAY), and counts the connection closed.
 */
final class ConnectionEnd extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(ConnectionEnd.class);

    private final TrafficCounters counters;

    ConnectionEnd(TrafficCounters counters) {
        this.counters = counters;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent) {
            Http2FrameCodec codec = ctx.pipeline().get(Http2FrameCodec.class);
            if (codec == null || codec.connection().numActiveStreams() == 0) {
                log.debug("closing idle HTTP/2 client connection {}", ctx.channel());
                ctx.close();
            }
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg); // connection-level frames the multiplexer passed on: nothing to do
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        counters.connectionClosed();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (Http2CodecUtil.getEmbeddedHttp2Exception(cause) != null) {
            // the frame codec answers it (GOAWAY with its error code, or RST_STREAM) and closes as needed;
            // closing here first would send a GOAWAY NO_ERROR instead
            log.debug("HTTP/2 client connection {}: {}", ctx.channel(), cause.getMessage());
            return;
        }
        log.debug("HTTP/2 client connection {}: {}", ctx.channel(), cause.toString());
        ctx.close();
    }
}
