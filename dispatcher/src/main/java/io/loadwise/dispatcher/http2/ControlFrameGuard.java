package io.loadwise.dispatcher.http2;

import io.loadwise.dispatcher.net.ClientAddress;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.DefaultHttp2GoAwayFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2PingFrame;
import io.netty.handler.codec.http2.Http2SettingsFrame;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends a connection whose client sends SETTINGS or PING frames faster than any real client does
 * (CVE-2019-9515, CVE-2019-9512: each costs the server an answer): more than {@link #MAX_PER_WINDOW}
 * of either within {@link #WINDOW_SECONDS} s gets GOAWAY ENHANCE_YOUR_CALM and a close. Also opens the
 * connection-level flow-control window wider than one stream's, when the connection starts.
 */
final class ControlFrameGuard extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(ControlFrameGuard.class);
    static final int MAX_PER_WINDOW = 100;
    static final int WINDOW_SECONDS = 10;

    /** The listener's name for log lines ({@code cluster shop}). */
    private final String cluster;
    private long windowStart;
    private int pings;
    private int settings;
    private boolean tripped;

    ControlFrameGuard(String cluster) {
        this.cluster = cluster;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        windowStart = ctx.executor().ticker().nanoTime();
        if (ctx.channel().isActive()) {
            ctx.writeAndFlush(new DefaultHttp2WindowUpdateFrame(Http2Frontend.CONNECTION_WINDOW
                    - Http2Frontend.STREAM_WINDOW)).addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        boolean counted = false;
        if (msg instanceof Http2PingFrame ping && !ping.ack()) {
            counted = true;
            pings++;
        } else if (msg instanceof Http2SettingsFrame) {
            counted = true;
            settings++;
        }
        if (counted) {
            long now = ctx.executor().ticker().nanoTime();
            if (now - windowStart > TimeUnit.SECONDS.toNanos(WINDOW_SECONDS)) {
                windowStart = now;
                pings = msg instanceof Http2PingFrame ? 1 : 0;
                settings = msg instanceof Http2SettingsFrame ? 1 : 0;
            }
            if (pings > MAX_PER_WINDOW || settings > MAX_PER_WINDOW) {
                ReferenceCountUtil.release(msg);
                if (!tripped) {
                    tripped = true;
                    log.info("{}: HTTP/2 client {} sent more than {} {} frames in {} s; closing", cluster,
                            ClientAddress.of(ctx.channel()), MAX_PER_WINDOW, pings > MAX_PER_WINDOW ? "PING" : "SETTINGS",
                            WINDOW_SECONDS);
                    ctx.writeAndFlush(new DefaultHttp2GoAwayFrame(Http2Error.ENHANCE_YOUR_CALM))
                            .addListener(ChannelFutureListener.CLOSE);
                }
                return;
            }
        }
        ctx.fireChannelRead(msg);
    }
}
