package io.loadwise.dispatcher.http;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.HttpConversionUtil;

/**
 * One request's stream to a node ({@link StreamPool}), between Netty's frame-to-HTTP/1.1 codec and the
 * {@link BackendHandler}: what the codec's conversion adds or leaves out is put right here, so the exchange reads a
 * node's stream as it reads an HTTP/1.1 response.
 * <ul>
 *   <li>the conversion's {@code x-http2-stream-id} is taken out of the response head;
 *   <li>a 1xx comes as a full response: it becomes a head and an empty end, as HTTP/1.1 decoding gives it;
 *   <li>a final response in one HEADERS frame (gRPC's Trailers-Only) stays one full response, so the client gets
 *       it as one HEADERS frame too;
 *   <li>{@code te: trailers}, hop-by-hop in HTTP/1.1 and taken out of the request, goes back on a gRPC request;
 *   <li>a node's RST_STREAM (a user event of Netty's multiplexer) and a GOAWAY that leaves the stream out end here:
 *       the stream channel closes, and the exchange sees a closed node connection (502, or a gRPC status, or the
 *       client's stream reset when the response had begun), sent again elsewhere when {@link #refused} and
 *       {@code retryOn} allow.
 * </ul>
 * It also tells its pool whether both sides ended the stream ({@link #ended}), so that a completed stream is not
 * reset.
 */
final class NodeStream extends ChannelDuplexHandler {

    static final String NAME = "node-stream";

    private boolean refused;
    private boolean requestEnded;
    private boolean responseEnded;

    /**
     * The node refused the stream before processing it: RST_STREAM with REFUSED_STREAM, or a GOAWAY whose last
     * stream id is below it (RFC 9113 §8.7): {@code retryOn}'s {@code refused-stream}, not {@code reset}.
     */
    boolean refused() {
        return refused;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof Http2GoAwayFrame goAway) { // only streams above its last stream id get it
            refused = true;
            goAway.release();
        } else if (evt instanceof Http2ResetFrame reset) { // Netty's multiplexer passes a node's RST_STREAM so
            refused |= reset.errorCode() == Http2Error.REFUSED_STREAM.code();
        } else {
            ctx.fireUserEventTriggered(evt);
        }
    }

    /** Both the request and the final response reached their end of stream: the stream closes by itself. */
    boolean ended() {
        return requestEnded && responseEnded;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpResponse response) {
            response.headers().remove(HttpConversionUtil.ExtensionHeaderNames.STREAM_ID.text());
            if (msg instanceof FullHttpResponse full && response.status().code() < 200) {
                ctx.fireChannelRead(new DefaultHttpResponse(full.protocolVersion(), full.status(), full.headers()));
                full.release();
                ctx.fireChannelRead(LastHttpContent.EMPTY_LAST_CONTENT);
                return;
            }
            responseEnded |= msg instanceof FullHttpResponse;
            ctx.fireChannelRead(msg);
        } else if (msg instanceof LastHttpContent last) {
            responseEnded = true;
            last.trailingHeaders().remove(HttpConversionUtil.ExtensionHeaderNames.STREAM_ID.text());
            ctx.fireChannelRead(msg);
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof HttpRequest request && Grpc.is(request.headers())) {
            request.headers().set(HttpHeaderNames.TE, HttpHeaderValues.TRAILERS);
        }
        if (msg instanceof LastHttpContent) {
            requestEnded = true;
        }
        ctx.write(msg, promise);
    }
}
