package io.loadwise.dispatcher.http.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.Ticker;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Queue;

/**
 * Reads HTTP/1.1 requests from a client, strictly (RFC 9112), into a {@link ProxiedRequest} head, body
 * pieces and a last content. Framing is decided once, from the headers as received: anything a node
 * could read differently is refused (RFC 9112 §6.1, §6.3), which closes every request-smuggling route
 * that depends on the proxy and the node disagreeing on where a message ends.
 *
 * <p>Refused: {@code Transfer-Encoding} other than exactly {@code chunked} (400, or 501 when chunked is
 * last behind other codings), TE with Content-Length, repeated TE, TE in HTTP/1.0, Content-Length values
 * that are not one decimal number, chunk sizes over 2 GiB, missing or repeated Host (HTTP/1.1), control
 * or non-ASCII bytes in the target, obs-fold, whitespace before a colon, CTLs in values, bare CR,
 * versions other than 1.0/1.1 (505), and CONNECT (405). Over the limits: 414 for the request line, 431
 * for the head or more than 100 lines. A refusal is one message whose decoder result carries a
 * {@link BadMessage}; everything after it on the connection is discarded.
 */
public final class RequestDecoder extends StrictHttp1Decoder {

    /** More header lines than this get 431, whatever their size. */
    public static final int MAX_HEADER_LINES = StrictHttp1Decoder.MAX_HEADER_LINES;

    private final Queue<HttpMethod> methods;
    /** The event loop's clock, so that tests on an {@code EmbeddedChannel} control time. */
    private Ticker ticker = Ticker.systemTicker();
    private long headStartNanos;
    private HttpMethod method;
    private String uri;
    private byte[] target;
    private HttpVersion version;

    /**
     * @param maxHeadBytes the longest request line (414 beyond) and head (431 beyond)
     * @param methods where each request's method goes, for the response encoder (HEAD responses)
     */
    public RequestDecoder(int maxHeadBytes, Queue<HttpMethod> methods) {
        super(maxHeadBytes);
        this.methods = methods;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        ticker = ctx.executor().ticker();
        super.handlerAdded(ctx);
    }

    /**
     * When the head now being received started (the event loop's {@link Ticker#nanoTime()}), or 0 when
     * none is: the header timeout runs from it.
     */
    public long headStartNanos() {
        return headStartNanos;
    }

    @Override
    void headStarted() {
        long now = ticker.nanoTime();
        headStartNanos = now != 0 ? now : 1; // 0 means "no head in progress"
    }

    @Override
    BadMessage bad(String reason) {
        return BadMessage.badRequest(reason);
    }

    @Override
    BadMessage headTooLarge(int limit, boolean startLine) {
        if (startLine) {
            return new BadMessage(HttpResponseStatus.REQUEST_URI_TOO_LONG, "request line longer than " + limit + " bytes");
        }
        return new BadMessage(HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, limit == MAX_HEADER_LINES
                ? "more than " + MAX_HEADER_LINES + " header lines" : "request head larger than " + limit + " bytes");
    }

    @Override
    void startLine(ByteBuf in, int start, int end) {
        int sp1 = in.indexOf(start, end, (byte) ' ');
        if (sp1 <= start) {
            throw bad("malformed request line");
        }
        for (int i = start; i < sp1; i++) {
            if (!HttpSyntax.isToken(in.getByte(i))) {
                throw bad("invalid character in the method");
            }
        }
        int sp2 = in.indexOf(sp1 + 1, end, (byte) ' ');
        if (sp2 < 0) {
            throw bad("request line without an HTTP version");
        }
        if (sp2 == sp1 + 1) {
            throw bad("empty request target");
        }
        for (int i = sp1 + 1; i < sp2; i++) {
            if (!HttpSyntax.isTargetChar(in.getByte(i))) {
                throw bad("invalid character in the request target");
            }
        }
        version = version(in, sp2 + 1, end);
        if (version == null) {
            throw new BadMessage(HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED,
                    in.toString(sp2 + 1, end - sp2 - 1, StandardCharsets.US_ASCII) + " is not supported");
        }
        method = HttpMethod.valueOf(in.toString(start, sp1 - start, StandardCharsets.US_ASCII));
        target = new byte[sp2 - sp1 - 1];
        in.getBytes(sp1 + 1, target);
        uri = new String(target, StandardCharsets.ISO_8859_1); // visible ASCII only, checked above
    }

    @Override
    long completeHead(HttpHeaders headers, List<Object> out) {
        checkHost(headers);
        if (HttpMethod.CONNECT.equals(method)) {
            throw new BadMessage(HttpResponseStatus.METHOD_NOT_ALLOWED, "CONNECT is not supported");
        }
        long bodyLength = framing(headers);
        boolean upgrade = headers.contains(HttpHeaderNames.UPGRADE)
                && headers.containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE, true);
        if (upgrade) {
            holdAfterThisMessage(); // what follows the request belongs to the new protocol, if the node agrees
        }
        methods.add(method);
        out.add(new ProxiedRequest(version, method, uri, target, headers, bodyLength, upgrade));
        headStartNanos = 0;
        method = null;
        uri = null;
        target = null;
        return bodyLength == ProxiedRequest.CHUNKED ? CHUNKED : bodyLength;
    }

    /** Read from the map's own values (no String copies): a value's chars are its bytes. */
    private void checkHost(HttpHeaders headers) {
        Iterator<? extends CharSequence> hosts = headers.valueCharSequenceIterator(HttpHeaderNames.HOST);
        if (!hosts.hasNext()) {
            if (version == HttpVersion.HTTP_1_1) {
                throw bad("missing Host header");
            }
            return;
        }
        CharSequence host = hosts.next();
        if (hosts.hasNext()) {
            throw bad("more than one Host header");
        }
        for (int i = 0; i < host.length(); i++) {
            if (!HttpSyntax.isHostChar(host.charAt(i))) {
                throw bad("invalid Host header");
            }
        }
    }

    /**
     * The body's length as the headers say it (RFC 9112 §6.3), with the headers made canonical: one
     * {@code Transfer-Encoding: chunked}, or one {@code Content-Length}.
     */
    private long framing(HttpHeaders headers) {
        List<String> codings = headers.contains(HttpHeaderNames.TRANSFER_ENCODING)
                ? headers.getAll(HttpHeaderNames.TRANSFER_ENCODING) : List.of();
        if (!codings.isEmpty()) {
            if (version == HttpVersion.HTTP_1_0) {
                throw bad("Transfer-Encoding in an HTTP/1.0 request");
            }
            if (codings.size() > 1) {
                throw bad("more than one Transfer-Encoding header");
            }
            if (headers.contains(HttpHeaderNames.CONTENT_LENGTH)) {
                throw bad("both Transfer-Encoding and Content-Length");
            }
            checkCodings(codings.get(0));
            headers.set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
            return ProxiedRequest.CHUNKED;
        }
        return Math.max(0, contentLength(headers));
    }

    /** Only {@code chunked} is read; chunked last behind other codings is understood but not served. */
    private void checkCodings(String value) {
        if (value.equalsIgnoreCase("chunked")) {
            return;
        }
        String[] codings = value.split(",", -1);
        for (int i = 0; i < codings.length - 1; i++) {
            String coding = codings[i].trim();
            if (coding.isEmpty() || coding.equalsIgnoreCase("chunked")) {
                throw bad("invalid Transfer-Encoding");
            }
        }
        if (codings.length > 1 && codings[codings.length - 1].trim().equalsIgnoreCase("chunked")) {
            throw new BadMessage(HttpResponseStatus.NOT_IMPLEMENTED,
                    "transfer codings other than chunked are not supported");
        }
        throw bad("Transfer-Encoding must end with chunked");
    }

    @Override
    void refuse(BadMessage reason, boolean inHead, List<Object> out) {
        headStartNanos = 0;
        if (inHead) {
            DefaultHttpRequest refused = new DefaultHttpRequest(HttpVersion.HTTP_1_1,
                    method != null ? method : HttpMethod.GET, "/", HEADERS.newHeaders());
            refused.setDecoderResult(DecoderResult.failure(reason));
            methods.add(refused.method());
            out.add(refused);
        } else {
            LastHttpContent refused = new DefaultLastHttpContent(Unpooled.EMPTY_BUFFER);
            refused.setDecoderResult(DecoderResult.failure(reason));
            out.add(refused);
        }
    }
}
