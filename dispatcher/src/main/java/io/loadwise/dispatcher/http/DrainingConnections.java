package io.loadwise.dispatcher.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The client connections of one HTTP listener, so that a reload can retire them gracefully: once
 * {@link #drain()} was called, the response to the last request a connection received carries
 * {@code Connection: close} and the connection closes after it. A request in flight therefore finishes, a
 * client that keeps sending gets its answer and reconnects (to the listener that took the socket over), and
 * an idle connection serves at most one more request or ends at its idle timeout. Nothing is cut, so no
 * client request fails because of a reload.
 *
 * <p>A connection upgraded to a tunnel (a {@code 101} went out) is left to run until either side closes it.
 * The per-connection handler sits between the codec and the {@link FrontendHandler}, sees request heads
 * going in and response parts going out, and is confined to its channel's event loop.
 */
final class DrainingConnections {

    static final String NAME = "drain";

    private final Set<Tracker> open = ConcurrentHashMap.newKeySet();
    private volatile boolean draining;

    ChannelDuplexHandler handler(Channel ch) {
        return new Tracker(ch);
    }

    /** Every connection, now and later, closes after the response to the last request it received. */
    void drain() {
        draining = true;
        for (Tracker tracker : open) {
            tracker.channel.eventLoop().execute(tracker::startDraining);
        }
    }

    /** Connections still open (tests). */
    int openConnections() {
        return open.size();
    }

    private final class Tracker extends ChannelDuplexHandler {

        private final Channel channel;
        /** Requests received whose final response has not been written whole. */
        private int pending;
        private boolean informational;
        private boolean closeAfterResponse;
        private boolean tunnel;
        private boolean drainingHere;

        Tracker(Channel channel) {
            this.channel = channel;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            open.add(this);
            if (draining) {
                startDraining();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            open.remove(this);
            super.channelInactive(ctx);
        }

        @Override
        public void handlerRemoved(ChannelHandlerContext ctx) {
            open.remove(this);
        }

        void startDraining() {
            drainingHere = true;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest && !tunnel) {
                pending++;
            }
            ctx.fireChannelRead(msg);
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (tunnel) {
                ctx.write(msg, promise);
                return;
            }
            if (msg instanceof HttpResponse response) {
                informational = response.status().codeClass() == HttpStatusClass.INFORMATIONAL;
                if (response.status().code() == HttpResponseStatus.SWITCHING_PROTOCOLS.code()) {
                    tunnel = true;
                    open.remove(this);
                } else if (!informational && drainingHere && pending <= 1) {
                    response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                    closeAfterResponse = true;
                }
            }
            if (msg instanceof LastHttpContent && !informational && !tunnel) {
                pending = Math.max(0, pending - 1);
                if (closeAfterResponse) {
                    ChannelPromise written = promise.isVoid() ? ctx.newPromise() : promise;
                    ctx.write(msg, written);
                    written.addListener(ChannelFutureListener.CLOSE);
                    return;
                }
            }
            ctx.write(msg, promise);
        }
    }
}
