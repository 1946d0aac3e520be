package io.loadwise.dispatcher.http3;

import io.loadwise.dispatcher.http.codec.BadMessage;
import io.loadwise.dispatcher.http2.RequestHeads;
import io.loadwise.dispatcher.metrics.TrafficCounters;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http3.DefaultHttp3DataFrame;
import io.netty.handler.codec.http3.DefaultHttp3Headers;
import io.netty.handler.codec.http3.DefaultHttp3HeadersFrame;
import io.netty.handler.codec.http3.Http3DataFrame;
import io.netty.handler.codec.http3.Http3ErrorCode;
import io.netty.handler.codec.http3.Http3Exception;
import io.netty.handler.codec.http3.Http3Headers;
import io.netty.handler.codec.http3.Http3HeadersFrame;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.handler.codec.quic.QuicStreamResetException;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns one HTTP/3 request stream into what the HTTP/1.1 exchange reads and writes, as {@code http2.StreamAdapter}
 * does for an h2 stream, with the same checks ({@link RequestHeads}: RFC 9114 §4.2 and §4.3 are RFC 9113's rules):
 * a malformed request resets the stream with {@code H3_MESSAGE_ERROR} (RFC 9114 §4.1.2) and never reaches a node.
 *
 * <p>HTTP/3 frames carry no END_STREAM flag: the request ends with the stream's FIN. So the head is held until the
 * next thing on the stream says whether a body follows: a DATA frame (a body), or the FIN (none; for a GET both
 * usually arrive in one read). Trailers are held until the FIN, after which nothing may follow them.
 * The response goes out as HEADERS, DATA and trailing HEADERS, and the stream's output is shut (FIN) after its last
 * frame.
 */
final class Http3StreamAdapter extends ChannelDuplexHandler {

    private static final Logger log = LoggerFactory.getLogger(Http3StreamAdapter.class);

    private final String listener;
    private final TrafficCounters counters;
    private final QuicStats stats;
    /** The request head, held until we know whether a body follows. */
    private Http3HeadersFrame pendingHead;
    private boolean headSeen;
    private boolean headPassed;
    /** Trailers read, held until the FIN. */
    private LastHttpContent trailers;
    private boolean refused;
    private boolean reset;
    private boolean ended;
    private long declaredLength = -1;
    private long received;
    private boolean informationalEnd;

    Http3StreamAdapter(String listener, TrafficCounters counters, QuicStats stats) {
        this.listener = listener;
        this.counters = counters;
        this.stats = stats;
    }

    /**
     * Whether the request was read whole, to its FIN: a stream that closed before (reset by the client, or refused
     * as malformed) was abandoned, and counts towards the connection's flood limit.
     */
    boolean requestDone() {
        return ended;
    }

    // ---- client → exchange -------------------------------------------------------------------------

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (refused || ended) {
            ReferenceCountUtil.release(msg);
        } else if (msg instanceof Http3HeadersFrame headers) {
            if (!headSeen) {
                headSeen = true;
                pendingHead = headers;
            } else if (trailers == null) {
                passHead(ctx, false);
                onTrailers(ctx, headers);
            } else {
                bodyFailed(ctx, "a frame after the trailers");
            }
        } else if (msg instanceof Http3DataFrame data) {
            if (!headSeen || trailers != null) {
                data.release();
                if (headSeen) {
                    bodyFailed(ctx, "DATA after the trailers");
                }
                return;
            }
            passHead(ctx, false);
            onData(ctx, data);
        } else {
            ReferenceCountUtil.release(msg); // unknown frame types are ignored (RFC 9114 §9)
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            onEnd(ctx); // the FIN ends the request; the exchange, as on an h2 stream, never sees a half-close
            ctx.fireChannelReadComplete(); // it came after the read batch: the exchange flushes to the node now
        } else if (!(evt instanceof io.netty.channel.socket.ChannelInputShutdownReadComplete)) {
            ctx.fireUserEventTriggered(evt);
        }
    }

    /** The FIN: the request is whole. */
    private void onEnd(ChannelHandlerContext ctx) {
        if (refused || ended) {
            return;
        }
        if (!headSeen) {
            malformed(ctx, "no HEADERS before the end of the stream");
            return;
        }
        boolean headOnly = !headPassed;
        passHead(ctx, true);
        if (refused) {
            return;
        }
        ended = true;
        if (headOnly) {
            ctx.fireChannelRead(LastHttpContent.EMPTY_LAST_CONTENT);
            return;
        }
        if (!RequestHeads.lengthAgrees(declaredLength, received, true)) {
            ended = false;
            bodyFailed(ctx, "the DATA frames do not add up to content-length");
            return;
        }
        LastHttpContent last = trailers != null ? trailers : LastHttpContent.EMPTY_LAST_CONTENT;
        trailers = null;
        ctx.fireChannelRead(last);
    }

    /** Hands the held head on; {@code endStream}: the FIN came right after it. */
    private void passHead(ChannelHandlerContext ctx, boolean endStream) {
        if (headPassed || refused) {
            return;
        }
        headPassed = true;
        Http3Headers h3 = pendingHead.headers();
        pendingHead = null;
        RequestHeads.Outcome head = RequestHeads.read(h3.method(), h3.scheme(), h3.path(), h3.authority(), h3,
                endStream, true);
        if (head.malformed()) {
            malformed(ctx, head.reason());
        } else if (!head.accepted()) {
            refuse(ctx, head.status(), head.reason());
        } else {
            declaredLength = head.declaredLength();
            stats.streamServed();
            ctx.fireChannelRead(head.request());
        }
    }

    private void onData(ChannelHandlerContext ctx, Http3DataFrame data) {
        if (refused) {
            data.release();
            return;
        }
        received += data.content().readableBytes();
        if (!RequestHeads.lengthAgrees(declaredLength, received, false)) {
            data.release();
            bodyFailed(ctx, "the DATA frames do not add up to content-length");
            return;
        }
        if (data.content().isReadable()) {
            ctx.fireChannelRead(new DefaultHttpContent(data.content()));
        } else {
            data.release();
        }
    }

    private void onTrailers(ChannelHandlerContext ctx, Http3HeadersFrame frame) {
        if (refused) {
            return;
        }
        LastHttpContent last = new DefaultLastHttpContent(Unpooled.EMPTY_BUFFER);
        String problem = RequestHeads.trailers(frame.headers(), declaredLength, true, last);
        if (problem != null) {
            last.release();
            bodyFailed(ctx, problem);
            return;
        }
        trailers = last;
    }

    /** The body went wrong after the head went on: reset, and the exchange fails the request. */
    private void bodyFailed(ChannelHandlerContext ctx, String reason) {
        refused = true;
        log.debug("{}: HTTP/3 stream {}: malformed request, H3_MESSAGE_ERROR ({})", listener, ctx.channel(), reason);
        releaseTrailers();
        resetStream(ctx, Http3ErrorCode.H3_MESSAGE_ERROR);
        if (headPassed) {
            LastHttpContent failed = new DefaultLastHttpContent(Unpooled.EMPTY_BUFFER);
            failed.setDecoderResult(DecoderResult.failure(new BadMessage(HttpResponseStatus.BAD_REQUEST, reason)));
            ctx.fireChannelRead(failed);
        }
    }

    /** A malformed request head (RFC 9114 §4.1.2): a stream error {@code H3_MESSAGE_ERROR}, no response. */
    private void malformed(ChannelHandlerContext ctx, String reason) {
        refused = true;
        log.debug("{}: HTTP/3 stream {}: malformed request, H3_MESSAGE_ERROR ({})", listener, ctx.channel(), reason);
        counters.requestStarted();
        counters.requestFailed();
        stats.streamRefused();
        resetStream(ctx, Http3ErrorCode.H3_MESSAGE_ERROR);
    }

    private void releaseTrailers() {
        if (trailers != null) {
            trailers.release();
            trailers = null;
        }
    }

    private void resetStream(ChannelHandlerContext ctx, Http3ErrorCode error) {
        reset = true;
        if (ctx.channel() instanceof QuicStreamChannel stream) {
            stream.shutdown(error.code()).addListener(f -> stream.close());
        } else {
            ctx.close();
        }
    }

    /** Answers a request refused before it reached the exchange. */
    private void refuse(ChannelHandlerContext ctx, HttpResponseStatus status, String reason) {
        refused = true;
        log.debug("{}: HTTP/3 stream {}: {} ({})", listener, ctx.channel(), status.code(), reason);
        counters.requestStarted();
        counters.requestFailed();
        stats.streamRefused();
        byte[] body = (status.code() + " " + status.reasonPhrase() + ": " + reason + "\n")
                .getBytes(StandardCharsets.UTF_8);
        Http3Headers headers = new DefaultHttp3Headers().status(status.codeAsText());
        headers.set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
        headers.setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        if (status == HttpResponseStatus.METHOD_NOT_ALLOWED) {
            headers.set(HttpHeaderNames.ALLOW, "GET, HEAD, POST, PUT, DELETE, OPTIONS, PATCH");
        }
        ctx.write(new DefaultHttp3HeadersFrame(headers));
        ctx.writeAndFlush(new DefaultHttp3DataFrame(Unpooled.wrappedBuffer(body)))
                .addListener(QuicStreamChannel.SHUTDOWN_OUTPUT);
    }

    /**
     * The stream's own errors: a reset by the client ends it quietly (the exchange sees it close, as a client
     * connection that went away); an error of the HTTP/3 codec (a header section over
     * {@code SETTINGS_MAX_FIELD_SECTION_SIZE}, a frame out of place) resets the stream with the error's own code
     * (RFC 9114 §8), {@code H3_MESSAGE_ERROR} when it has none, and nothing reaches a node.
     */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("{}: HTTP/3 stream {}: {}", listener, ctx.channel(), cause.toString());
        boolean wasRefused = refused;
        refused = true;
        releaseTrailers();
        if (cause instanceof QuicStreamResetException || reset) {
            ctx.close();
            return;
        }
        if (!wasRefused && !headPassed) {
            counters.requestStarted();
            counters.requestFailed();
            stats.streamRefused();
        }
        Http3ErrorCode code = cause instanceof Http3Exception h3 ? h3.errorCode() : Http3ErrorCode.H3_MESSAGE_ERROR;
        resetStream(ctx, code);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        releaseTrailers();
        if (pendingHead != null) {
            pendingHead = null;
        }
        ctx.fireChannelInactive();
    }

    // ---- exchange → client -------------------------------------------------------------------------

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (reset) {
            ReferenceCountUtil.release(msg); // the stream was reset: the exchange's answer has nowhere to go
            promise.trySuccess();
        } else if (msg instanceof HttpResponse response) {
            boolean informational = response.status().code() < 200;
            Http3Headers headers = ResponseHeads.of(response);
            if (msg instanceof FullHttpResponse full) {
                ByteBuf content = full.content();
                if (informational) {
                    ctx.write(new DefaultHttp3HeadersFrame(headers), promise);
                } else {
                    ChannelFuture written = ctx.write(new DefaultHttp3HeadersFrame(headers));
                    if (content.isReadable()) {
                        written = ctx.write(new DefaultHttp3DataFrame(content.retain()));
                    }
                    endAfter(written, promise);
                }
                full.release();
            } else {
                ctx.write(new DefaultHttp3HeadersFrame(headers), promise);
                ReferenceCountUtil.release(msg);
            }
            informationalEnd = informational && !(msg instanceof FullHttpResponse);
        } else if (msg instanceof LastHttpContent last && informationalEnd) {
            informationalEnd = false; // the end of a 1xx: the final response follows on the same stream
            last.release();
            promise.trySuccess();
        } else if (msg instanceof LastHttpContent last) {
            ChannelFuture written = null;
            if (last.content().isReadable()) {
                written = ctx.write(new DefaultHttp3DataFrame(last.content().retain()));
            }
            if (!last.trailingHeaders().isEmpty()) {
                written = ctx.write(new DefaultHttp3HeadersFrame(ResponseHeads.trailers(last.trailingHeaders())));
            }
            last.release();
            endAfter(written == null ? ctx.newSucceededFuture() : written, promise);
        } else if (msg instanceof HttpContent content) {
            if (content.content().isReadable()) {
                ctx.write(new DefaultHttp3DataFrame(content.content()), promise);
            } else {
                content.release();
                promise.trySuccess();
            }
        } else if (msg instanceof ByteBuf bytes && !bytes.isReadable()) {
            bytes.release(); // "close after what was written": the stream ends with its FIN
            promise.trySuccess();
        } else {
            ctx.write(msg, promise);
        }
    }

    /** The response is whole: the stream's output ends (FIN) once {@code written}, its last frame, is written. */
    private static void endAfter(ChannelFuture written, ChannelPromise promise) {
        written.addListener(f -> {
            if (!f.isSuccess()) {
                promise.tryFailure(f.cause());
            } else if (written.channel() instanceof QuicStreamChannel stream) {
                stream.shutdownOutput(promise);
            } else {
                promise.trySuccess();
            }
        });
    }
}
