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
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpMethod;
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
import io.netty.util.AsciiString;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
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
    private static final Set<AsciiString> CONNECTION_SPECIFIC = Set.of(
            AsciiString.cached("connection"), AsciiString.cached("keep-alive"),
            AsciiString.cached("proxy-connection"), AsciiString.cached("transfer-encoding"),
            AsciiString.cached("upgrade"));
    private static final AsciiString HOST = AsciiString.cached("host");
    private static final AsciiString COOKIE = AsciiString.cached("cookie");
    private static final AsciiString TE = AsciiString.cached("te");
    /**
     * The request's HTTP/1.1 fields, not validated again: the frame codec has checked every name (a token, lower
     * case: {@code validateHeaders(true)}) and {@link RequestSyntax#validValue} every value, more strictly than HTTP/1.1's
     * checks would, before a field is added.
     */
    private static final HttpHeadersFactory REQUEST_HEADERS =
            DefaultHttpHeadersFactory.headersFactory().withValidation(false);

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
        CharSequence method = h2.method();
        CharSequence path = h2.path();
        CharSequence authority = h2.authority();
        if (method == null) {
            malformed(ctx, "no :method");
            return;
        }
        if (AsciiString.contentEquals(method, "CONNECT")) {
            refuse(ctx, HttpResponseStatus.METHOD_NOT_ALLOWED, "CONNECT is not proxied");
            return;
        }
        if (h2.scheme() == null || path == null || path.length() == 0) {
            malformed(ctx, "missing :scheme or :path");
            return;
        }
        if (!RequestSyntax.originForm(path, method)) {
            malformed(ctx, "invalid :path");
            return;
        }
        if (!RequestSyntax.isToken(method)) {
            malformed(ctx, "invalid :method");
            return;
        }
        if (authority != null && !RequestSyntax.validValue(authority)) {
            malformed(ctx, "invalid :authority");
            return;
        }
        HttpHeaders headers = REQUEST_HEADERS.newHeaders();
        StringBuilder cookies = null;
        for (Map.Entry<CharSequence, CharSequence> header : h2) {
            CharSequence name = header.getKey();
            if (name.length() > 0 && name.charAt(0) == ':') {
                continue;
            }
            CharSequence value = header.getValue();
            AsciiString lower = AsciiString.of(name).toLowerCase();
            if (CONNECTION_SPECIFIC.contains(lower) || (lower.equals(TE) && !AsciiString.contentEqualsIgnoreCase(
                    value, "trailers"))) {
                malformed(ctx, "connection-specific header " + name);
                return;
            }
            if (!RequestSyntax.validValue(value)) {
                malformed(ctx, "invalid value of " + name);
                return;
            }
            if (lower.equals(HOST) && authority != null && !AsciiString.contentEqualsIgnoreCase(value, authority)) {
                // RFC 9113 §8.3.1: a Host naming another entity than :authority makes the request malformed;
                // a route table would otherwise read one and the node the other
                refuse(ctx, HttpResponseStatus.BAD_REQUEST, "host differs from :authority");
                return;
            }
            if (lower.equals(COOKIE)) {
                cookies = cookies == null ? new StringBuilder(value) : cookies.append("; ").append(value);
            } else if (!(lower.equals(HOST) && authority != null)) {
                headers.add(lower, value);
            }
        }
        if (cookies != null) {
            headers.set(HttpHeaderNames.COOKIE, cookies.toString()); // RFC 9113 §8.2.3: one field for HTTP/1.1
        }
        if (authority != null) {
            headers.set(HttpHeaderNames.HOST, authority); // RFC 9113 §8.3.1: :authority wins over Host
        } else if (!headers.contains(HttpHeaderNames.HOST)) {
            refuse(ctx, HttpResponseStatus.BAD_REQUEST, "no :authority or host");
            return;
        }
        long bodyLength;
        if (frame.isEndStream()) {
            bodyLength = 0;
            headers.remove(HttpHeaderNames.CONTENT_LENGTH);
        } else {
            String length = headers.get(HttpHeaderNames.CONTENT_LENGTH);
            if (headers.getAll(HttpHeaderNames.CONTENT_LENGTH).size() > 1) {
                malformed(ctx, "more than one content-length");
                return;
            }
            if (length != null) {
                declaredLength = RequestSyntax.parseLength(length);
                if (declaredLength < 0) {
                    malformed(ctx, "invalid content-length");
                    return;
                }
                bodyLength = declaredLength;
            } else {
                bodyLength = ProxiedRequest.CHUNKED;
            }
        }
        ctx.fireChannelRead(ProxiedRequest.of(HttpMethod.valueOf(method.toString()), path.toString(), headers,
                bodyLength));
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
        if (declaredLength >= 0 && (received > declaredLength || (data.isEndStream() && received != declaredLength))) {
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
        if (declaredLength < 0) { // chunked to the node: trailers can follow; with a content-length they cannot
            for (Map.Entry<CharSequence, CharSequence> header : frame.headers()) {
                CharSequence name = header.getKey();
                if (name.length() > 0 && name.charAt(0) == ':' || !RequestSyntax.validValue(header.getValue())) {
                    bodyFailed(ctx, "invalid trailer " + name);
                    return;
                }
                last.trailingHeaders().add(name, header.getValue());
            }
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
