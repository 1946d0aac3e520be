package io.loadwise.dispatcher.net;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds a listener to its connection limits, like HAProxy's {@code maxconn}: every accepted connection
 * takes a slot of each limit until it closes; while one is full the listener does not accept, so further
 * connections wait in the kernel's backlog without using a file descriptor, and it accepts again as soon
 * as a slot frees. Netty may accept several sockets in one read, and a listener may accept once more
 * before it hears that a shared limit filled up; such a connection is closed at once, before any
 * handler or event loop sees it, and counted.
 *
 * <p>Sits on the server channel, before Netty's {@code ServerBootstrapAcceptor}. Used on the server
 * channel's event loop, except {@link #watcher}, which runs where a slot was taken or given back.
 */
final class AcceptGate extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(AcceptGate.class);

    private final String listener;
    private final ConnectionLimit[] limits;
    private final Runnable onRejected;
    private final AcceptPauses pauses;
    private final LogThrottle fullLog = new LogThrottle();
    /** One listener for every accepted connection: gives its slots back. */
    private final ChannelFutureListener releaseOnClose = closed -> release();
    private final Runnable recheck = this::recheck;
    private final Runnable watcher = this::limitChanged;
    private EventLoop loop;
    private boolean removed;

    /**
     * @param listener the listener's name for log lines
     * @param limits the listener's own limit and/or the dispatcher's; at least one
     * @param onRejected counts a connection closed because a limit was full
     */
    AcceptGate(String listener, ConnectionLimit[] limits, Runnable onRejected, AcceptPauses pauses) {
        this.listener = listener;
        this.limits = limits.clone();
        this.onRejected = onRejected;
        this.pauses = pauses;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        loop = ctx.channel().eventLoop();
        for (ConnectionLimit limit : limits) {
            limit.watch(watcher);
        }
        recheck(); // a shared limit may be full already
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof Channel child)) {
            ctx.fireChannelRead(msg);
            return;
        }
        ConnectionLimit full = acquire();
        if (full != null) {
            full.rejected();
            onRejected.run();
            // Not registered yet: this closes the socket right here, and no handler ever sees it.
            child.unsafe().closeForcibly();
            log.debug("{}: {} full, closed a connection accepted over it", listener, full);
            recheck();
            return;
        }
        child.closeFuture().addListener(releaseOnClose);
        recheck(); // now, not when the watcher's task runs: stops this read loop after the last slot
        ctx.fireChannelRead(child);
    }

    /** Takes a slot of every limit; on the first full one gives back those taken and returns it. */
    private ConnectionLimit acquire() {
        for (int i = 0; i < limits.length; i++) {
            if (!limits[i].tryAcquire()) {
                for (int j = 0; j < i; j++) {
                    limits[j].release();
                }
                return limits[i];
            }
        }
        return null;
    }

    private void release() {
        for (ConnectionLimit limit : limits) {
            limit.release();
        }
    }

    /** Accepts while no limit is full. Whatever changed last, the recheck it caused runs after it. */
    private void recheck() {
        if (removed) {
            return;
        }
        ConnectionLimit full = null;
        for (ConnectionLimit limit : limits) {
            if (limit.full()) {
                full = limit;
                break;
            }
        }
        if (full == null) {
            pauses.resume(AcceptPauses.LIMIT);
            return;
        }
        if (!pauses.paused(AcceptPauses.LIMIT) && fullLog.shouldLog(loop.ticker().nanoTime())) {
            long more = fullLog.takeSuppressed();
            log.info("{}: {} client connections open, the limit of {}; not accepting until one closes{}", listener,
                    full.open(), full.name(), more == 0 ? "" : " (reached " + more + " more times since the last line)");
        }
        pauses.pause(AcceptPauses.LIMIT);
    }

    /** A limit became full or stopped being full; any thread. */
    private void limitChanged() {
        try {
            loop.execute(recheck);
        } catch (RejectedExecutionException e) {
            // the acceptor loop is shutting down: nothing is accepted any more
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        removed = true;
        for (ConnectionLimit limit : limits) {
            limit.unwatch(watcher);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        handlerRemoved(ctx); // the listener closed: stop watching a shared limit that outlives it
        ctx.fireChannelInactive();
    }
}
