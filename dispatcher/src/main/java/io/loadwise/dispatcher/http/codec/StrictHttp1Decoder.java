package io.loadwise.dispatcher.http.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.List;

/**
 * What reading an HTTP/1.1 message strictly (RFC 9112) has in common for requests and responses: lines
 * and fields, the body framed by length, by chunks or by the connection's close, and trailers. A
 * subclass reads the start line and decides the framing from the head; everything here refuses what a
 * lenient peer could read differently, with a {@link BadMessage} of the subclass's choosing.
 *
 * <p>Lines may end in LF alone (RFC 9112 §2.2); a bare CR anywhere is refused. The search for a line
 * end resumes where it stopped, so a head sent byte by byte costs linear time.
 */
abstract class StrictHttp1Decoder extends ByteToMessageDecoder {

    /** More header lines than this are refused, whatever their size. */
    static final int MAX_HEADER_LINES = 100;
    static final int MAX_CHUNK_LINE = 4096;
    /**
     * The largest chunk read. Senders chunk in kilobytes; a size past 2 GiB is an attack on a peer that
     * reads sizes into 32 bits (Netty read {@code 100000005} as 5), so it is refused rather than honoured.
     */
    static final long MAX_CHUNK_SIZE = Integer.MAX_VALUE;
    /** {@link #framing} of a chunked body. */
    static final long CHUNKED = -1;
    /** {@link #framing} of a body that ends when the connection closes (responses only). */
    static final long UNTIL_CLOSE = -2;
    private static final int MAX_EMPTY_LINES = 4;
    static final HttpHeadersFactory HEADERS = DefaultHttpHeadersFactory.headersFactory().withValidation(false);
    private static final HttpHeadersFactory TRAILERS =
            DefaultHttpHeadersFactory.trailersFactory().withValidation(false);

    private enum State { START_LINE, FIELDS, FIXED_BODY, CHUNK_SIZE, CHUNK_DATA, CHUNK_END, TRAILERS, UNTIL_CLOSE, HOLD, BAD }

    private final int maxHeadBytes;
    private State state = State.START_LINE;
    private int scanFrom;
    private int sectionBytes;
    private int lines;
    private int emptyLines;
    private long remaining;
    private HttpHeaders headers;
    private HttpHeaders trailers;
    /** The message now being read is the last before a protocol switch: hold what follows. */
    private boolean holdAfter;

    StrictHttp1Decoder(int maxHeadBytes) {
        this.maxHeadBytes = maxHeadBytes;
    }

    /** Reads the start line ({@code [start, end)}, without its line end). */
    abstract void startLine(ByteBuf in, int start, int end);

    /**
     * The head is complete: emit it into {@code out} and return its body's framing: a length (0 for
     * none), {@link #CHUNKED} or {@link #UNTIL_CLOSE}.
     */
    abstract long completeHead(HttpHeaders headers, List<Object> out);

    /** Emits the refusal of the message being read; {@code inHead}: no head of it was emitted yet. */
    abstract void refuse(BadMessage reason, boolean inHead, List<Object> out);

    /** What a broken message of this kind is answered with: 400 for a client's, 502 for a node's. */
    abstract BadMessage bad(String reason);

    /** A head larger than the limit. */
    abstract BadMessage headTooLarge(int limit, boolean startLine);

    /** Reads nothing more until this handler leaves the pipeline (a protocol switch). */
    void holdAfterThisMessage() {
        holdAfter = true;
    }

    /** Whether a head is being received now (its first byte arrived, its end not yet). */
    boolean inHead() {
        return (state == State.START_LINE && (scanFrom > 0 || emptyLines > 0)) || state == State.FIELDS;
    }

    /** Whether no message is in progress and the decoder waits for the next start line. */
    boolean betweenMessages() {
        return state == State.START_LINE;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        try {
            while (step(in, out)) {
                // each step consumed something or emitted a message
            }
        } catch (BadMessage e) {
            in.skipBytes(in.readableBytes());
            boolean inHead = state == State.START_LINE || state == State.FIELDS;
            state = State.BAD;
            refuse(e, inHead, out);
        }
    }

    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        decode(ctx, in, out);
        if (state == State.UNTIL_CLOSE) {
            out.add(LastHttpContent.EMPTY_LAST_CONTENT); // the close is the body's end
            messageDone();
        }
    }

    /** Called when the decoder starts on a new head; the request decoder times it. */
    void headStarted() {
    }

    private boolean step(ByteBuf in, List<Object> out) {
        switch (state) {
            case START_LINE:
            case FIELDS:
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
            case UNTIL_CLOSE:
                if (!in.isReadable()) {
                    return false;
                }
                out.add(new DefaultHttpContent(in.readRetainedSlice(in.readableBytes())));
                return true;
            case HOLD:
                return false; // the new protocol's bytes, passed on when this handler leaves
            case BAD:
            default:
                in.skipBytes(in.readableBytes());
                return false;
        }
    }

    private int nextLineFeed(ByteBuf in) {
        int start = in.readerIndex();
        int end = in.writerIndex();
        int lf = in.indexOf(start + scanFrom, end, (byte) '\n');
        scanFrom = lf < 0 ? end - start : 0;
        return lf;
    }

    private static int contentEnd(ByteBuf in, int start, int lf) {
        return lf > start && in.getByte(lf - 1) == '\r' ? lf - 1 : lf;
    }

    private boolean readHead(ByteBuf in, List<Object> out) {
        if (!in.isReadable()) {
            return false;
        }
        if (state == State.START_LINE && scanFrom == 0 && emptyLines == 0) {
            headStarted();
        }
        int start = in.readerIndex();
        int lf = nextLineFeed(in);
        if (lf < 0) {
            if (state == State.START_LINE && in.readableBytes() > maxHeadBytes) {
                throw headTooLarge(maxHeadBytes, true);
            }
            if (state == State.FIELDS && sectionBytes + in.readableBytes() > maxHeadBytes) {
                throw headTooLarge(maxHeadBytes, false);
            }
            return false;
        }
        int end = contentEnd(in, start, lf);
        in.readerIndex(lf + 1);
        if (state == State.START_LINE) {
            if (end == start) {
                if (++emptyLines > MAX_EMPTY_LINES) {
                    throw bad("empty lines instead of a start line");
                }
                return true;
            }
            if (lf + 1 - start > maxHeadBytes) {
                throw headTooLarge(maxHeadBytes, true);
            }
            startLine(in, start, end);
            sectionBytes = lf + 1 - start;
            lines = 0;
            headers = HEADERS.newHeaders();
            state = State.FIELDS;
            return true;
        }
        sectionBytes += lf + 1 - start;
        if (sectionBytes > maxHeadBytes) {
            throw headTooLarge(maxHeadBytes, false);
        }
        if (end == start) {
            HttpHeaders complete = headers;
            headers = null;
            emptyLines = 0;
            long framing = completeHead(complete, out);
            if (framing == 0) {
                out.add(LastHttpContent.EMPTY_LAST_CONTENT);
                messageDone();
            } else if (framing == CHUNKED) {
                state = State.CHUNK_SIZE;
            } else if (framing == UNTIL_CLOSE) {
                state = State.UNTIL_CLOSE;
            } else {
                remaining = framing;
                state = State.FIXED_BODY;
            }
            return true;
        }
        if (++lines > MAX_HEADER_LINES) {
            throw headTooLarge(MAX_HEADER_LINES, false);
        }
        HeadFields.readField(this, in, start, end, headers);
        return true;
    }

    /** {@code HTTP/1.0} or {@code HTTP/1.1}; {@code null} for a well-formed other version ({@link HeadFields#version}). */
    HttpVersion version(ByteBuf in, int start, int end) {
        return HeadFields.version(this, in, start, end);
    }

    /** The body length the Content-Length headers state, or -1 when there is none ({@link HeadFields#contentLength}). */
    long contentLength(HttpHeaders headers) {
        return HeadFields.contentLength(this, headers);
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
            // A Content-Length body has no trailer section: share the empty, immutable field map instead of a
            // new map per message (184 of the 3,160 bytes a proxied exchange allocated, HeadPathBench)
            out.add(new DefaultLastHttpContent(piece, EmptyHttpHeaders.INSTANCE));
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
                throw bad("chunk size line too long");
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
                throw bad("chunk size too large");
            }
        }
        if (i == start) {
            throw bad("invalid chunk size");
        }
        while (i < end && HttpSyntax.isOws(in.getByte(i))) {
            i++;
        }
        if (i < end && in.getByte(i) != ';') {
            throw bad("invalid chunk size");
        }
        for (; i < end; i++) {
            if (!HttpSyntax.isFieldValueChar(in.getByte(i))) {
                throw bad("invalid character in a chunk extension");
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
                throw bad("chunk data longer than its size");
            }
            in.skipBytes(2);
        } else {
            throw bad("chunk data longer than its size");
        }
        state = State.CHUNK_SIZE;
        return true;
    }

    private boolean readTrailers(ByteBuf in, List<Object> out) {
        int start = in.readerIndex();
        int lf = nextLineFeed(in);
        if (lf < 0) {
            if (sectionBytes + in.readableBytes() > maxHeadBytes) {
                throw bad("trailer section larger than " + maxHeadBytes + " bytes");
            }
            return false;
        }
        int end = contentEnd(in, start, lf);
        in.readerIndex(lf + 1);
        sectionBytes += lf + 1 - start;
        if (sectionBytes > maxHeadBytes) {
            throw bad("trailer section larger than " + maxHeadBytes + " bytes");
        }
        if (end == start) {
            out.add(trailers == null ? LastHttpContent.EMPTY_LAST_CONTENT
                    : new DefaultLastHttpContent(Unpooled.EMPTY_BUFFER, trailers));
            trailers = null;
            messageDone();
            return true;
        }
        if (++lines > MAX_HEADER_LINES) {
            throw bad("more than " + MAX_HEADER_LINES + " trailer lines");
        }
        if (trailers == null) {
            trailers = TRAILERS.newHeaders();
        }
        HeadFields.readField(this, in, start, end, trailers);
        return true;
    }

    /** A whole message was read: the next one, or nothing more if a protocol switch follows. */
    private void messageDone() {
        state = holdAfter ? State.HOLD : State.START_LINE;
        holdAfter = false;
        scanFrom = 0;
        emptyLines = 0;
    }

    static BadMessage status(HttpResponseStatus status, String reason) {
        return new BadMessage(status, reason);
    }
}
