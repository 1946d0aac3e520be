package io.loadwise.dispatcher.http3;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http3.DefaultHttp3GoAwayFrame;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.http3.Http3ErrorCode;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicStreamChannel;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The request streams of one QUIC connection, on its event loop (its streams share it):
 * <ul>
 *   <li>the rapid-reset budget: more than {@link Http3Frontend#MAX_ABANDONED_STREAMS} streams ended without a whole
 *       request within {@link Http3Frontend#ABANDON_WINDOW_SECONDS} close the connection with H3_EXCESSIVE_LOAD;</li>
 *   <li>the graceful close (RFC 9114 §5.2): {@link #goAway()} sends GOAWAY naming the first stream it will not
 *       serve, refuses any later stream with H3_REQUEST_REJECTED (the client may retry it elsewhere), and closes the
 *       connection with H3_NO_ERROR once the streams already accepted have ended.</li>
 * </ul>
 */
final class StreamLedger {

    private static final Logger log = LoggerFactory.getLogger(StreamLedger.class);

    private final QuicChannel quic;
    private final String name;
    private final QuicStats stats;
    private long windowStart;
    private int abandoned;
    private int open;
    /** The highest client-initiated bidirectional stream ID accepted; -4: none yet (IDs go 0, 4, 8, …). */
    private long lastStreamId = -4;
    /** The GOAWAY's stream ID once sent (streams from it on are refused); -1 before. */
    private long goAwayId = -1;

    StreamLedger(QuicChannel quic, String name, QuicStats stats) {
        this.quic = quic;
        this.name = name;
        this.stats = stats;
        this.windowStart = System.nanoTime();
    }

    /** A request stream opened: true to serve it, false when it came after the GOAWAY (it is refused here). */
    boolean opened(QuicStreamChannel stream) {
        if (goAwayId >= 0 && stream.streamId() >= goAwayId) {
            stream.shutdown(Http3ErrorCode.H3_REQUEST_REJECTED.code());
            return false;
        }
        open++;
        lastStreamId = Math.max(lastStreamId, stream.streamId());
        return true;
    }

    /** A served stream ended, {@code whole} when it carried a whole request. */
    void closed(boolean whole) {
        open--;
        if (goAwayId >= 0 && open == 0) {
            quic.close(true, Http3ErrorCode.H3_NO_ERROR.code(), Unpooled.EMPTY_BUFFER);
            return;
        }
        if (whole) {
            return;
        }
        long now = System.nanoTime();
        if (now - windowStart > TimeUnit.SECONDS.toNanos(Http3Frontend.ABANDON_WINDOW_SECONDS)) {
            windowStart = now;
            abandoned = 0;
        }
        if (++abandoned == Http3Frontend.MAX_ABANDONED_STREAMS + 1) {
            stats.excessiveLoad();
            log.warn("{}: HTTP/3 connection from {}: {} streams abandoned within {} s, closed with"
                    + " H3_EXCESSIVE_LOAD", name, quic.remoteSocketAddress(), abandoned,
                    Http3Frontend.ABANDON_WINDOW_SECONDS);
            quic.close(true, Http3ErrorCode.H3_EXCESSIVE_LOAD.code(), Unpooled.EMPTY_BUFFER);
        }
    }

    /** Starts the graceful close; on the connection's event loop. */
    void goAway() {
        if (goAwayId >= 0 || !quic.isActive()) {
            return;
        }
        goAwayId = lastStreamId + 4;
        QuicStreamChannel control = Http3.getLocalControlStream(quic);
        if (control == null || open == 0) {
            quic.close(true, Http3ErrorCode.H3_NO_ERROR.code(), Unpooled.EMPTY_BUFFER);
            return;
        }
        control.writeAndFlush(new DefaultHttp3GoAwayFrame(goAwayId));
    }
}
