package io.loadwise.dispatcher.http2;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.util.ReferenceCountUtil;
import java.util.BitSet;

/**
 * Reads the frame headers of the client's byte stream, just before the frame codec, and ends the connection
 * where RFC 9113 asks for an error the codec does not give:
 * <ul>
 *   <li>HEADERS on a stream the client already ended (half-closed remote, §5.1) or that is closed
 *       (§5.1: connection error STREAM_CLOSED);</li>
 *   <li>HEADERS opening a stream numbered below one the client opened before, never used (§5.1.1:
 *       connection error PROTOCOL_ERROR).</li>
 * </ul>
 * The codec would answer the first with RST_STREAM PROTOCOL_ERROR (it reads the block as trailers) or
 * STREAM_CLOSED, and serve or reset the second as a stream that "may have existed". The connection error goes
 * to the codec as an exception, so it sends GOAWAY with the code and closes. Frames are only looked at, never
 * changed or held: the codec still decodes every header block (HPACK state stays whole). A stream the proxy
 * reset or closed while the client still writes to it is left to the codec (a stream error at most): only what
 * the client itself ended, or never opened, ends the connection. Memory is bounded: two rings of bits over the
 * last {@link #WINDOW} client stream ids, opened and ended.
 */
final class StreamStateGuard extends ChannelInboundHandlerAdapter {

    private static final int HEADERS = 0x1;
    private static final int DATA = 0x0;
    private static final int END_STREAM = 0x1;
    /** Client streams remembered as opened or ended, counting back from the highest (a power of two). */
    static final int WINDOW = 4096;

    private final Http2Connection connection;
    /** Bytes of the client connection preface still to pass before frames start. */
    private int prefaceLeft;
    private final byte[] header = new byte[9];
    private int headerFill;
    /** Payload bytes of the current frame still to pass. */
    private long payloadLeft;
    private int highest;
    /** Bit {@link #slot}: the client opened the stream. */
    private final BitSet opened = new BitSet(WINDOW);
    /** Bit {@link #slot}: the client ended the stream (END_STREAM). */
    private final BitSet ended = new BitSet(WINDOW);
    private boolean failed;

    /** @param prefaceBytes 24 when the client preface is still to come on this connection, else 0 */
    StreamStateGuard(Http2Connection connection, int prefaceBytes) {
        this.connection = connection;
        this.prefaceLeft = prefaceBytes;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (failed) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof ByteBuf bytes && !scan(bytes)) {
            failed = true;
            bytes.release();
            return;
        }
        ctx.fireChannelRead(msg);
    }

    /** False when a frame of {@code bytes} is a connection error, already raised. */
    private boolean scan(ByteBuf bytes) {
        int i = bytes.readerIndex();
        int end = bytes.writerIndex();
        while (i < end) {
            if (prefaceLeft > 0) {
                int n = Math.min(prefaceLeft, end - i);
                prefaceLeft -= n;
                i += n;
            } else if (payloadLeft > 0) {
                int n = (int) Math.min(payloadLeft, end - i);
                payloadLeft -= n;
                i += n;
            } else {
                header[headerFill++] = bytes.getByte(i++);
                if (headerFill == header.length) {
                    headerFill = 0;
                    payloadLeft = ((header[0] & 0xff) << 16) | ((header[1] & 0xff) << 8) | (header[2] & 0xff);
                    int stream = ((header[5] & 0x7f) << 24) | ((header[6] & 0xff) << 16) | ((header[7] & 0xff) << 8)
                            | (header[8] & 0xff);
                    if (!frame(header[3] & 0xff, header[4] & 0xff, stream)) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private ChannelHandlerContext ctx;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    private boolean frame(int type, int flags, int stream) {
        if (stream == 0 || (stream & 1) == 0 || (type != HEADERS && type != DATA)) {
            return true; // connection frames, server streams and the rest: the codec's
        }
        boolean endStream = (flags & END_STREAM) != 0;
        if (type == DATA) {
            if (endStream && known(stream)) {
                ended.set(slot(stream));
            }
            return true;
        }
        if (stream > highest) {
            open(stream, endStream);
            return true;
        }
        if (!known(stream)) {
            return true; // older than the window: the codec decides
        }
        if (!opened.get(slot(stream))) {
            return refuse(Http2Error.PROTOCOL_ERROR, "HEADERS open stream %d after stream %d", stream, highest);
        }
        Http2Stream live = connection.stream(stream);
        if (ended.get(slot(stream)) || (live != null && live.state() == Http2Stream.State.HALF_CLOSED_REMOTE)) {
            return refuse(Http2Error.STREAM_CLOSED, "HEADERS on stream %d, which the client ended (%d)", stream, 0);
        }
        if (endStream) {
            ended.set(slot(stream)); // trailers
        }
        return true;
    }

    /** A new stream: the ids skipped since the last one are cleared (never opened), this one is set. */
    private void open(int stream, boolean endStream) {
        int from = highest == 0 ? 1 : highest + 2;
        if ((stream - from) / 2 >= WINDOW) {
            opened.clear();
            ended.clear();
        } else {
            for (int id = from; id < stream; id += 2) {
                opened.clear(slot(id));
                ended.clear(slot(id));
            }
        }
        highest = stream;
        opened.set(slot(stream));
        ended.set(slot(stream), endStream);
    }

    private boolean known(int stream) {
        return stream <= highest && (highest - stream) / 2 < WINDOW;
    }

    private static int slot(int stream) {
        return (stream >>> 1) & (WINDOW - 1);
    }

    private boolean refuse(Http2Error error, String format, int stream, int other) {
        ctx.fireExceptionCaught(Http2Exception.connectionError(error, format, stream, other));
        return false;
    }
}
