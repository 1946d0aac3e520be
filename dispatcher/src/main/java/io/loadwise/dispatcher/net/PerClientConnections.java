package io.loadwise.dispatcher.net;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A listener's {@code maxConnectionsPerClient}: connections one client address may hold at once. A server
 * channel handler, after the {@link AcceptGate}: a connection over the cap is closed before it is registered,
 * and the client's other connections are untouched. The table holds an entry only for an address with a
 * connection open, so it is bounded by the connections themselves.
 */
@ChannelHandler.Sharable
public final class PerClientConnections extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(PerClientConnections.class);

    private final String listener;
    private final int max;
    private final ConcurrentHashMap<InetAddress, Integer> open = new ConcurrentHashMap<>();
    private final LongAdder rejected = new LongAdder();
    private final LogThrottle rejectLog = new LogThrottle();

    public PerClientConnections(String listener, int max) {
        if (max < 1) {
            throw new IllegalArgumentException(listener + ": maxConnectionsPerClient must be at least 1, got " + max);
        }
        this.listener = listener;
        this.max = max;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof Channel child)) {
            ctx.fireChannelRead(msg);
            return;
        }
        InetAddress client = addressOf(child.remoteAddress());
        if (client == null || acquire(client)) {
            if (client != null) {
                child.closeFuture().addListener((ChannelFutureListener) f -> release(client));
            }
            ctx.fireChannelRead(child);
            return;
        }
        rejected.increment();
        child.unsafe().closeForcibly();
        if (rejectLog.shouldLog(ctx.channel().eventLoop().ticker().nanoTime())) {
            long more = rejectLog.takeSuppressed();
            log.info("{}: {} holds {} connections, its limit; closed one more{}", listener, client.getHostAddress(),
                    max, more == 0 ? "" : " (and " + more + " more since the last line)");
        }
    }

    boolean acquire(InetAddress client) {
        boolean[] taken = {false};
        open.compute(client, (a, n) -> {
            int held = n == null ? 0 : n;
            if (held >= max) {
                return n;
            }
            taken[0] = true;
            return held + 1;
        });
        return taken[0];
    }

    void release(InetAddress client) {
        open.computeIfPresent(client, (a, n) -> n <= 1 ? null : n - 1);
    }

    /** Connections closed at once because their client held the most it may. */
    public long rejected() {
        return rejected.sum();
    }

    /** Client addresses with a connection open now. */
    public int clients() {
        return open.size();
    }

    public int max() {
        return max;
    }

    private static InetAddress addressOf(SocketAddress address) {
        return address instanceof InetSocketAddress inet ? inet.getAddress() : null;
    }
}
