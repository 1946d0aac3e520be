package io.loadwise.dispatcher.http2;

import io.loadwise.dispatcher.metrics.TrafficCounters;
import io.loadwise.dispatcher.http.codec.BadMessage;
import io.loadwise.dispatcher.http.codec.ProxiedRequest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameStreamException;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.HttpConversionUtil;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns one HTTP/2 stream into what the HTTP/1.1 exchange reads and writes: the request's HEADERS into
 * a {@link ProxiedRequest}, DATA into body content, trailers into the last content; and the exchange's
 * response head, body and trailers back into HEADERS and DATA frames.
 *
 * <p>The request goes on to a node as HTTP/1.1, so everything HTTP/2 tolerates but HTTP/1.1 would read
 * differently is refused here (RFC 9113 §8.2.1, §8.3): control characters or surrounding white space in
 * a value, a path that is not origin-form, connection-specific headers, a {@code content-length} the
 * DATA frames do not add up to, pseudo-header fields missing or among trailers, HEADERS in the middle of
 * a body. Such a request is malformed (RFC 9113 §8.1.1): its stream is reset with {@code PROTOCOL_ERROR}
 * and its body never reaches a node. CONNECT gets a 405, a request with neither {@code :authority} nor
 * {@code host} a 400.
 */
final class StreamAdapter extends ChannelDuplexHandler {

    private static final Logger log = LoggerFactory.getLogger(StreamAdapter.class);
    /** The listener's name for log lines ({@code cluster shop}, {@code listener edge}). */
    private final String listener;
    private final TrafficCounters counters;
    /** Request HEADERS seen; what follows is body or trailers. */
    private boolean headSeen;
    /** The request was refused or its body went wrong: the rest of it is dropped. */
    private boolean refused;
    /** {@code content-length} of the request, or -1. */
    private long declaredLength = -1;
    private long received;
    /** This side reset the stream (a malformed request): nothing more is written to it. */
    private boolean reset;
    /** A 1xx head went out: the empty last content that ends it is not the end of the stream. */
    private boolean informationalEnd;

    StreamAdapter(String listener, TrafficCounters counters) {
        this.listener = listener;
        this.counters = counters;
    }

    // ---- client → exchange -------------------------------------------------------------------------

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (refused) {
            ReferenceCountUtil.release(msg);
        } else if (msg instanceof Http2HeadersFrame headers) {
            if (!headSeen) {
                onRequestHead(ctx, headers);
            } else {
                onTrailers(ctx, headers);
            }
        } else if (msg instanceof Http2DataFrame data) {
            onData(ctx, data);
        } else {
            ReferenceCountUtil.release(msg); // RST_STREAM and the like: the stream channel closes by itself
        }
    }

    private void onRequestHead(ChannelHandlerContext ctx, Http2HeadersFrame frame) {
        headSeen = true;
        Http2Headers h2 = frame.headers();
        RequestHeads.Outcome head = RequestHeads.read(h2.method(), h2.scheme(), h2.path(), h2.authority(), h2,
                frame.isEndStream(), false);
        if (head.malformed()) {
            malformed(ctx, head.reason());
            return;
        }
        if (!head.accepted()) {
            refuse(ctx, head.status(), head.reason());
            return;
        }
        declaredLength = head.declaredLength();
        ctx.fireChannelRead(head.request());
        if (frame.isEndStream()) {
            ctx.fireChannelRead(LastHttpContent.EMPTY_LAST_CONTENT);
        }
    }

    private void onData(ChannelHandlerContext ctx, Http2DataFrame data) {
        if (!headSeen) {
            data.release();
            return;
        }
        received += data.content().readableBytes();
        if (!RequestHeads.lengthAgrees(declaredLength, received, data.isEndStream())) {
            data.release();
            bodyFailed(ctx, "the DATA frames do not add up to content-length");
            return;
        }
        if (data.isEndStream()) {
            ctx.fireChannelRead(new DefaultLastHttpContent(data.content()));
        } else if (data.content().isReadable()) {
            ctx.fireChannelRead(new DefaultHttpContent(data.content()));
        } else {
            data.release();
        }
    }

    private void onTrailers(ChannelHandlerContext ctx, Http2HeadersFrame frame) {
        if (!frame.isEndStream()) {
            bodyFailed(ctx, "HEADERS in the middle of a body");
            return;
        }
        if (declaredLength >= 0 && received != declaredLength) {
            bodyFailed(ctx, "the DATA frames do not add up to content-length");
            return;
        }
        LastHttpContent last = new DefaultLastHttpContent(Unpooled.EMPTY_BUFFER);
        String problem = RequestHeads.trailers(frame.headers(), declaredLength, false, last);
        if (problem != null) {
            last.release();
            bodyFailed(ctx, problem);
            return;
        }
        ctx.fireChannelRead(last);
    }

    /**
     * The body went wrong after the head went on (RFC 9113 §8.1.1: malformed): the stream is reset with
     * {@code PROTOCOL_ERROR}, the exchange fails the request, and nothing more reaches the node; what the
     * exchange would answer is dropped ({@link #reset}).
     */
    private void bodyFailed(ChannelHandlerContext ctx, String reason) {
        refused = true;
        log.debug("{}: HTTP/2 stream {}: malformed request, RST_STREAM PROTOCOL_ERROR ({})", listener,
                ctx.channel(), reason);
        resetStream(ctx);
        LastHttpContent failed = new DefaultLastHttpContent(Unpooled.EMPTY_BUFFER);
        failed.setDecoderResult(DecoderResult.failure(new BadMessage(HttpResponseStatus.BAD_REQUEST, reason)));
        ctx.fireChannelRead(failed);
    }

    /**
     * A malformed request head (RFC 9113 §8.1.1, §8.2.1, §8.3.1): a stream error of type
     * {@code PROTOCOL_ERROR}, as the RFC requires, rather than a response; nothing reaches a node.
     */
    private void malformed(ChannelHandlerContext ctx, String reason) {
        refused = true;
        log.debug("{}: HTTP/2 stream {}: malformed request, RST_STREAM PROTOCOL_ERROR ({})", listener,
                ctx.channel(), reason);
        counters.requestStarted();
        counters.requestFailed();
        resetStream(ctx);
    }

    private void resetStream(ChannelHandlerContext ctx) {
        resetStream(ctx, Http2Error.PROTOCOL_ERROR);
    }

    private void resetStream(ChannelHandlerContext ctx, Http2Error error) {
        reset = true;
        ctx.writeAndFlush(new DefaultHttp2ResetFrame(error)).addListener(ChannelFutureListener.CLOSE);
    }

    /**
     * A stream error the codec found (DATA or HEADERS on a half-closed stream, a PRIORITY frame of the wrong
     * size, a zero or overflowing WINDOW_UPDATE, an invalid header field): Netty's frame codec hands it to the
     * stream (as the {@link Http2Exception.StreamException} itself) rather than answering it, and a stream
     * channel that just closed would reset with {@code CANCEL}.
     * The stream is reset here with the error's own code (RFC 9113 §5.4.2); the exchange sees it close.
     */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Http2Error error = cause instanceof Http2FrameStreamException frame ? frame.error()
                : cause instanceof Http2Exception.StreamException stream ? stream.error() : null;
        if (error != null) {
            refused = true;
            if (!reset) {
                log.debug("{}: HTTP/2 stream {}: stream error {} ({})", listener, ctx.channel(), error,
                        cause.getMessage());
                resetStream(ctx, error);
            }
            return;
        }
        ctx.fireExceptionCaught(cause);
    }

    /** Answers a request refused before it reached the exchange. */
    private void refuse(ChannelHandlerContext ctx, HttpResponseStatus status, String reason) {
        refused = true;
        log.debug("{}: HTTP/2 stream {}: {} ({})", listener, ctx.channel(), status.code(), reason);
        counters.requestStarted();
        counters.requestFailed();
        byte[] body = (status.code() + " " + status.reasonPhrase() + ": " + reason + "\n")
                .getBytes(StandardCharsets.UTF_8);
        Http2Headers headers = new DefaultHttp2Headers().status(status.codeAsText())
                .set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        if (status == HttpResponseStatus.METHOD_NOT_ALLOWED) {
            headers.set(HttpHeaderNames.ALLOW, "GET, HEAD, POST, PUT, DELETE, OPTIONS, PATCH");
        }
        ctx.write(new DefaultHttp2HeadersFrame(headers));
        ctx.writeAndFlush(new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(body), true))
                .addListener(ChannelFutureListener.CLOSE);
    }

    // ---- exchange → client -------------------------------------------------------------------------

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (reset && !(msg instanceof Http2ResetFrame)) {
            ReferenceCountUtil.release(msg); // the stream was reset: the exchange's answer has nowhere to go
            promise.trySuccess();
        } else if (msg instanceof HttpResponse response) {
            boolean informational = response.status().code() < 200;
            Http2Headers headers = HttpConversionUtil.toHttp2Headers(response, false);
            if (msg instanceof FullHttpResponse full) {
                ByteBuf content = full.content();
                boolean endWithHeaders = !content.isReadable() && !informational;
                ctx.write(new DefaultHttp2HeadersFrame(headers, endWithHeaders),
                        endWithHeaders ? promise : ctx.voidPromise());
                if (!endWithHeaders && !informational) {
                    ctx.write(new DefaultHttp2DataFrame(content.retain(), true), promise);
                } else if (informational) {
                    promise.trySuccess();
                }
                full.release();
            } else {
                ctx.write(new DefaultHttp2HeadersFrame(headers, false), promise);
                ReferenceCountUtil.release(msg);
            }
            informationalEnd = informational && !(msg instanceof FullHttpResponse);
        } else if (msg instanceof LastHttpContent last && informationalEnd) {
            informationalEnd = false; // the end of a 1xx: the final response follows on the same stream
            last.release();
            promise.trySuccess();
        } else if (msg instanceof LastHttpContent last) {
            HttpHeaders trailers = last.trailingHeaders();
            if (trailers.isEmpty()) {
                ctx.write(new DefaultHttp2DataFrame(last.content(), true), promise);
            } else {
                if (last.content().isReadable()) {
                    ctx.write(new DefaultHttp2DataFrame(last.content(), false), ctx.voidPromise());
                } else {
                    last.release();
                }
                ctx.write(new DefaultHttp2HeadersFrame(HttpConversionUtil.toHttp2Headers(trailers, false), true),
                        promise);
            }
        } else if (msg instanceof HttpContent content) {
            if (content.content().isReadable()) {
                ctx.write(new DefaultHttp2DataFrame(content.content(), false), promise);
            } else {
                content.release();
                promise.trySuccess();
            }
        } else if (msg instanceof ByteBuf bytes && !bytes.isReadable()) {
            bytes.release(); // "close after what was written": the stream ended with its last frame
            promise.trySuccess();
        } else {
            ctx.write(msg, promise);
        }
    }
}
