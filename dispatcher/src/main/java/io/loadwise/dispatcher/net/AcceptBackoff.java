package io.loadwise.dispatcher.net;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Backs off when accepting fails, typically with {@code EMFILE}/{@code ENFILE} (out of file
 * descriptors): the pending connection stays in the backlog, so retrying at once would fail again in a
 * tight loop and fill the log. Stops accepting for 50 ms, doubling on each further failure up to 1 s,
 * back to 50 ms after a connection is accepted. Logs a warning at most once per 10 s per listener,
 * with the number of failures in between.
 *
 * <p>Netty's {@code ServerBootstrapAcceptor}, further down the server pipeline, would pause accepting
 * for a fixed second on any exception, and the exception would then reach the pipeline's tail and be
 * logged again. This handler handles it instead and does not pass it on. Used only on the server
 * channel's event loop.
 */
final class AcceptBackoff extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(AcceptBackoff.class);

    static final long FIRST_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    static final long MAX_DELAY_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final String listener;
    private final AcceptPauses pauses;
    private final LogThrottle warnings = new LogThrottle();
    private final Runnable resume = this::resume;
    /** The current pause; 0 when the last accept succeeded. */
    private long delayNanos;

    AcceptBackoff(String listener, AcceptPauses pauses) {
        this.listener = listener;
        this.pauses = pauses;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        delayNanos = 0;
        ctx.fireChannelRead(msg);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        boolean backingOff = pauses.paused(AcceptPauses.BACKOFF);
        if (!backingOff) {
            delayNanos = delayNanos == 0 ? FIRST_DELAY_NANOS : Math.min(delayNanos * 2, MAX_DELAY_NANOS);
        }
        if (warnings.shouldLog(ctx.executor().ticker().nanoTime())) {
            long more = warnings.takeSuppressed();
            log.warn("{}: accepting a connection failed ({}); not accepting for {} ms{}", listener, cause.toString(),
                    TimeUnit.NANOSECONDS.toMillis(delayNanos),
                    more == 0 ? "" : " (" + more + " more failures since the last warning)");
        }
        if (!backingOff) {
            pauses.pause(AcceptPauses.BACKOFF);
            ctx.executor().schedule(resume, delayNanos, TimeUnit.NANOSECONDS);
        }
    }

    private void resume() {
        pauses.resume(AcceptPauses.BACKOFF);
    }
}
