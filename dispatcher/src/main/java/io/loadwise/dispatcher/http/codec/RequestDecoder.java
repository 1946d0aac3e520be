package io.loadwise.dispatcher.http.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.AsciiString;
import java.nio.charset.StandardCharsets;
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
 * that are not one decimal number, chunk sizes that do not fit a long, missing or repeated Host (HTTP/1.1),
 * control or non-ASCII bytes in the target, obs-fold, whitespace before a colon, CTLs in values, bare CR,
 * versions other than 1.0/1.1 (505), and CONNECT (405). A refusal is one message whose decoder result
 * carries a {@link BadMessage}; everything after it on the connection is discarded.
 *
 * <p>Lines may end in LF alone (RFC 9112 §2.2); the node gets CRLF, since the head is re-encoded.
 * The search for a line end resumes where it stopped, so a head sent byte by byte costs linear time.
 */
public final class RequestDecoder extends ByteToMessageDecoder {

    /** More header lines than this get 431, whatever their size. */
    public static final int MAX_HEADER_LINES = 100;
    static final int MAX_CHUNK_LINE = 4096;
    /**
     * The largest chunk read. Senders chunk in kilobytes; a size past 2 GiB is an attack on a peer that
     * reads sizes into 32 bits (Netty read {@code 100000005} as 5), so it is refused rather than honoured.
     */
    static final long MAX_CHUNK_SIZE = Integer.MAX_VALUE;
    private static final int MAX_EMPTY_LINES = 4;
    private static final HttpHeadersFactory HEADERS =
            DefaultHttpHeadersFactory.headersFactory().withValidation(false);
    private static final HttpHeadersFactory TRAILERS =
            DefaultHttpHeadersFactory.trailersFactory().withValidation(false);

    private enum State { HEAD, FIXED_BODY, CHUNK_SIZE, CHUNK_DATA, CHUNK_END, TRAILERS, UPGRADING, BAD }

    private final int maxHeadBytes;
    private final Queue<HttpMethod> methods;

    private State state = State.HEAD;
    /** Where, from the reader index, the search for the next LF goes on. */
    private int scanFrom;
    private int sectionBytes;
    private int lines;
    private int emptyLines;
    private long headStartNanos;
    private HttpMethod method;
    private String uri;
    private HttpVersion version;
    private HttpHeaders headers;
    private HttpHeaders trailers;
    private long remaining;
    private boolean upgrade;

    /**
     * @param maxHeadBytes the longest request line (414 beyond) and head (431 beyond)
     * @param methods where each request's method goes, for the response encoder (HEAD responses)
     */
    public RequestDecoder(int maxHeadBytes, Queue<HttpMethod> methods) {
        this.maxHeadBytes = maxHeadBytes;
        this.methods = methods;
    }

    /**
     * When the head now being received started ({@link System#nanoTime()}), or 0 when none is: the
     * header timeout runs from it.
     */
    public long headStartNanos() {
        return headStartNanos;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        try {
            while (step(in, out)) {
                // each step consumed something or emitted a message
            }
        } catch (BadMessage e) {
            refuse(in, out, e);
        }
    }

    private boolean step(ByteBuf in, List<Object> out) {
        switch (state) {
            case HEAD:
                return readHead(in, out);
            case FIXED_BODY:
                return readBody(in, out, true);
            case CHUNK_SIZE:
                return readChunkSize(in);
            case CHUNK_DATA:
                return readBody(in, out, false);
            case CHUNK_END:
                return readChunkEnd(in);
            case TRAILERS:
                return readTrailers(in, out);
            case UPGRADING:
                return false; // what follows belongs to the new protocol; passed on when this handler leaves
            case BAD:
            default:
                in.skipBytes(in.readableBytes());
                return false;
        }
    }

    /** The index of the next LF from the reader index, or -1, remembering how far it looked. */
    private int nextLineFeed(ByteBuf in) {
        int start = in.readerIndex();
        int end = in.writerIndex();
        int lf = in.indexOf(start + scanFrom, end, (byte) '\n');
        scanFrom = lf < 0 ? end - start : 0;
        return lf;
    }

    /** The end of the line content ending at {@code lf}, leaving out one CR before the LF. */
    private static int contentEnd(ByteBuf in, int start, int lf) {
        return lf > start && in.getByte(lf - 1) == '\r' ? lf - 1 : lf;
    }

    private boolean readHead(ByteBuf in, List<Object> out) {
        if (!in.isReadable()) {
            return false;
        }
        if (headStartNanos == 0) {
            headStartNanos = System.nanoTime();
        }
        int start = in.readerIndex();
        int lf = nextLineFeed(in);
        if (lf < 0) {
            if (method == null && in.readableBytes() > maxHeadBytes) {
                throw new BadMessage(HttpResponseStatus.REQUEST_URI_TOO_LONG,
                        "request line longer than " + maxHeadBytes + " bytes");
            }
            if (method != null && sectionBytes + in.readableBytes() > maxHeadBytes) {
                throw headTooLarge();
            }
            return false;
        }
        int end = contentEnd(in, start, lf);
        in.readerIndex(lf + 1);
        if (method == null) {
            if (end == start) {
                if (++emptyLines > MAX_EMPTY_LINES) {
                    throw BadMessage.badRequest("empty lines instead of a request line");
                }
                return true;
            }
            if (lf + 1 - start > maxHeadBytes) {
                throw new BadMessage(HttpResponseStatus.REQUEST_URI_TOO_LONG,
                        "request line longer than " + maxHeadBytes + " bytes");
            }
            readRequestLine(in, start, end);
            sectionBytes = lf + 1 - start;
            headers = HEADERS.newHeaders();
            return true;
        }
        sectionBytes += lf + 1 - start;
        if (sectionBytes > maxHeadBytes) {
            throw headTooLarge();
        }
        if (end == start) {
            completeHead(out);
            return true;
        }
        if (++lines > MAX_HEADER_LINES) {
            throw new BadMessage(HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
                    "more than " + MAX_HEADER_LINES + " header lines");
        }
        readField(in, start, end, headers);
        return true;
    }

    private BadMessage headTooLarge() {
        return new BadMessage(HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
                "request head larger than " + maxHeadBytes + " bytes");
    }

    private void readRequestLine(ByteBuf in, int start, int end) {
        int sp1 = in.indexOf(start, end, (byte) ' ');
        if (sp1 <= start) {
            throw BadMessage.badRequest("malformed request line");
        }
        for (int i = start; i < sp1; i++) {
            if (!HttpSyntax.isToken(in.getByte(i))) {
                throw BadMessage.badRequest("invalid character in the method");
            }
        }
        int sp2 = in.indexOf(sp1 + 1, end, (byte) ' ');
        if (sp2 < 0) {
            throw BadMessage.badRequest("request line without an HTTP version");
        }
        if (sp2 == sp1 + 1) {
            throw BadMessage.badRequest("empty request target");
        }
        for (int i = sp1 + 1; i < sp2; i++) {
            if (!HttpSyntax.isTargetChar(in.getByte(i))) {
                throw BadMessage.badRequest("invalid character in the request target");
            }
        }
        version = readVersion(in, sp2 + 1, end);
        method = HttpMethod.valueOf(in.toString(start, sp1 - start, StandardCharsets.US_ASCII));
        uri = in.toString(sp1 + 1, sp2 - sp1 - 1, StandardCharsets.US_ASCII);
    }

    /** {@code HTTP/d.d}: 1.0 and 1.1 are read, other well-formed versions get 505, anything else 400. */
    private static HttpVersion readVersion(ByteBuf in, int start, int end) {
        if (end - start != 8 || in.getByte(start) != 'H' || in.getByte(start + 1) != 'T'
                || in.getByte(start + 2) != 'T' || in.getByte(start + 3) != 'P' || in.getByte(start + 4) != '/'
                || in.getByte(start + 6) != '.') {
            throw BadMessage.badRequest("malformed HTTP version");
        }
        int major = in.getByte(start + 5) - '0';
        int minor = in.getByte(start + 7) - '0';
        if (major < 0 || major > 9 || minor < 0 || minor > 9) {
            throw BadMessage.badRequest("malformed HTTP version");
        }
        if (major == 1 && minor == 1) {
            return HttpVersion.HTTP_1_1;
        }
        if (major == 1 && minor == 0) {
            return HttpVersion.HTTP_1_0;
        }
        throw new BadMessage(HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED,
                "HTTP/" + major + "." + minor + " is not supported");
    }

    /** One {@code name: value} line into {@code into}, value without surrounding whitespace. */
    private static void readField(ByteBuf in, int start, int end, HttpHeaders into) {
        if (HttpSyntax.isOws(in.getByte(start))) {
            throw BadMessage.badRequest("obsolete line folding in the header section");
        }
        int colon = -1;
        for (int i = start; i < end; i++) {
            byte b = in.getByte(i);
            if (b == ':') {
                colon = i;
                break;
            }
            if (!HttpSyntax.isToken(b)) {
                throw BadMessage.badRequest(HttpSyntax.isOws(b) ? "whitespace before a header's colon"
                        : "invalid character in a header name");
            }
        }
        if (colon < 0) {
            throw BadMessage.badRequest("header line without a colon");
        }
        if (colon == start) {
            throw BadMessage.badRequest("header line without a name");
        }
        int from = colon + 1;
        int to = end;
        while (from < to && HttpSyntax.isOws(in.getByte(from))) {
            from++;
        }
        while (to > from && HttpSyntax.isOws(in.getByte(to - 1))) {
            to--;
        }
        for (int i = from; i < to; i++) {
            if (!HttpSyntax.isFieldValueChar(in.getByte(i))) {
                throw BadMessage.badRequest("invalid character in a header value");
            }
        }
        into.add(ascii(in, start, colon), ascii(in, from, to));
    }

    private static AsciiString ascii(ByteBuf in, int from, int to) {
        byte[] bytes = new byte[to - from];
        in.getBytes(from, bytes);
        return new AsciiString(bytes, false);
    }

    private void completeHead(List<Object> out) {
        checkHost();
        if (HttpMethod.CONNECT.equals(method)) {
            throw new BadMessage(HttpResponseStatus.METHOD_NOT_ALLOWED, "CONNECT is not supported");
        }
        long bodyLength = framing();
        upgrade = headers.contains(HttpHeaderNames.UPGRADE)
                && headers.containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE, true);
        ProxiedRequest request = new ProxiedRequest(version, method, uri, headers, bodyLength, upgrade);
        methods.add(method);
        out.add(request);
        resetHead();
        if (bodyLength == 0) {
            out.add(LastHttpContent.EMPTY_LAST_CONTENT);
            messageDone();
        } else if (bodyLength == ProxiedRequest.CHUNKED) {
            state = State.CHUNK_SIZE;
        } else {
            remaining = bodyLength;
            state = State.FIXED_BODY;
        }
    }

    private void checkHost() {
        List<String> hosts = headers.getAll(HttpHeaderNames.HOST);
        if (hosts.size() > 1) {
            throw BadMessage.badRequest("more than one Host header");
        }
        if (hosts.isEmpty()) {
            if (version == HttpVersion.HTTP_1_1) {
                throw BadMessage.badRequest("missing Host header");
            }
            return;
        }
        String host = hosts.get(0);
        for (int i = 0; i < host.length(); i++) {
            if (!HttpSyntax.isHostChar(host.charAt(i))) {
                throw BadMessage.badRequest("invalid Host header");
            }
        }
    }

    /**
     * The body's length as the headers say it (RFC 9112 §6.3), with the headers made canonical: one
     * {@code Transfer-Encoding: chunked}, or one {@code Content-Length}.
     */
    private long framing() {
        List<String> codings = headers.getAll(HttpHeaderNames.TRANSFER_ENCODING);
        List<String> lengths = headers.getAll(HttpHeaderNames.CONTENT_LENGTH);
        if (!codings.isEmpty()) {
            if (version == HttpVersion.HTTP_1_0) {
                throw BadMessage.badRequest("Transfer-Encoding in an HTTP/1.0 request");
            }
            if (codings.size() > 1) {
                throw BadMessage.badRequest("more than one Transfer-Encoding header");
            }
            if (!lengths.isEmpty()) {
                throw BadMessage.badRequest("both Transfer-Encoding and Content-Length");
            }
            checkCodings(codings.get(0));
            headers.set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
            return ProxiedRequest.CHUNKED;
        }
        if (lengths.isEmpty()) {
            return 0;
        }
        long length = -1;
        for (String value : lengths) {
            for (String element : value.split(",", -1)) {
                long parsed = decimal(element.trim());
                if (length >= 0 && parsed != length) {
                    throw BadMessage.badRequest("conflicting Content-Length values");
                }
                length = parsed;
            }
        }
        if (lengths.size() > 1 || lengths.get(0).indexOf(',') >= 0) {
            headers.set(HttpHeaderNames.CONTENT_LENGTH, length);
        }
        return length;
    }

    /** Only {@code chunked} is read; chunked last behind other codings is understood but not served. */
    private static void checkCodings(String value) {
        if (value.equalsIgnoreCase("chunked")) {
            return;
        }
        String[] codings = value.split(",", -1);
        for (int i = 0; i < codings.length - 1; i++) {
            String coding = codings[i].trim();
            if (coding.isEmpty() || coding.equalsIgnoreCase("chunked")) {
                throw BadMessage.badRequest("invalid Transfer-Encoding");
            }
        }
        if (codings.length > 1 && codings[codings.length - 1].trim().equalsIgnoreCase("chunked")) {
            throw new BadMessage(HttpResponseStatus.NOT_IMPLEMENTED,
                    "transfer codings other than chunked are not supported");
        }
        throw BadMessage.badRequest("Transfer-Encoding must end with chunked");
    }

    private static long decimal(String text) {
        if (text.isEmpty() || text.length() > 18) {
            throw BadMessage.badRequest("invalid Content-Length");
        }
        long value = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                throw BadMessage.badRequest("invalid Content-Length");
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private boolean readBody(ByteBuf in, List<Object> out, boolean fixed) {
        int n = (int) Math.min(remaining, in.readableBytes());
        if (n == 0) {
            return false;
        }
        ByteBuf piece = in.readRetainedSlice(n);
        remaining -= n;
        if (remaining > 0) {
            out.add(new DefaultHttpContent(piece));
        } else if (fixed) {
            out.add(new DefaultLastHttpContent(piece));
            messageDone();
        } else {
            out.add(new DefaultHttpContent(piece));
            state = State.CHUNK_END;
        }
        return true;
    }

    /** {@code chunk-size [ chunk-ext ] CRLF}; extensions are checked and dropped (the encoder re-chunks). */
    private boolean readChunkSize(ByteBuf in) {
        int start = in.readerIndex();
        int lf = nextLineFeed(in);
        if (lf < 0) {
            if (in.readableBytes() > MAX_CHUNK_LINE) {
                throw BadMessage.badRequest("chunk size line too long");
            }
            return false;
        }
        int end = contentEnd(in, start, lf);
        long size = 0;
        int i = start;
        for (; i < end; i++) {
            int digit = HttpSyntax.hexValue(in.getByte(i));
            if (digit < 0) {
                break;
            }
            size = (size << 4) | digit;
            if (size > MAX_CHUNK_SIZE) {
                throw BadMessage.badRequest("chunk size too large");
            }
        }
        if (i == start) {
            throw BadMessage.badRequest("invalid chunk size");
        }
        while (i < end && HttpSyntax.isOws(in.getByte(i))) {
            i++;
        }
        if (i < end && in.getByte(i) != ';') {
            throw BadMessage.badRequest("invalid chunk size");
        }
        for (; i < end; i++) {
            if (!HttpSyntax.isFieldValueChar(in.getByte(i))) {
                throw BadMessage.badRequest("invalid character in a chunk extension");
            }
        }
        in.readerIndex(lf + 1);
        if (size == 0) {
            state = State.TRAILERS;
            sectionBytes = 0;
            lines = 0;
        } else {
            remaining = size;
            state = State.CHUNK_DATA;
        }
        return true;
    }

    private boolean readChunkEnd(ByteBuf in) {
        if (!in.isReadable()) {
            return false;
        }
        int at = in.readerIndex();
        byte b = in.getByte(at);
        if (b == '\n') {
            in.skipBytes(1);
        } else if (b == '\r') {
            if (in.readableBytes() < 2) {
                return false;
            }
            if (in.getByte(at + 1) != '\n') {
                throw BadMessage.badRequest("chunk data longer than its size");
            }
            in.skipBytes(2);
        } else {
            throw BadMessage.badRequest("chunk data longer than its size");
        }
        state = State.CHUNK_SIZE;
        return true;
    }

    private boolean readTrailers(ByteBuf in, List<Object> out) {
        int start = in.readerIndex();
        int lf = nextLineFeed(in);
        if (lf < 0) {
            if (sectionBytes + in.readableBytes() > maxHeadBytes) {
                throw BadMessage.badRequest("trailer section larger than " + maxHeadBytes + " bytes");
            }
            return false;
        }
        int end = contentEnd(in, start, lf);
        in.readerIndex(lf + 1);
        sectionBytes += lf + 1 - start;
        if (sectionBytes > maxHeadBytes) {
            throw BadMessage.badRequest("trailer section larger than " + maxHeadBytes + " bytes");
        }
        if (end == start) {
            out.add(trailers == null ? LastHttpContent.EMPTY_LAST_CONTENT
                    : new DefaultLastHttpContent(Unpooled.EMPTY_BUFFER, trailers));
            trailers = null;
            messageDone();
            return true;
        }
        if (++lines > MAX_HEADER_LINES) {
            throw BadMessage.badRequest("more than " + MAX_HEADER_LINES + " trailer lines");
        }
        if (trailers == null) {
            trailers = TRAILERS.newHeaders();
        }
        readField(in, start, end, trailers);
        return true;
    }

    private void resetHead() {
        headStartNanos = 0;
        method = null;
        uri = null;
        version = null;
        headers = null;
        sectionBytes = 0;
        lines = 0;
        emptyLines = 0;
    }

    /** A whole message was read: the next one, or nothing more if it asked to switch protocols. */
    private void messageDone() {
        state = upgrade ? State.UPGRADING : State.HEAD;
        upgrade = false;
        scanFrom = 0;
    }

    /** Emits the refusal and discards the rest of the connection's input. */
    private void refuse(ByteBuf in, List<Object> out, BadMessage reason) {
        in.skipBytes(in.readableBytes());
        boolean inHead = state == State.HEAD;
        state = State.BAD;
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
