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
 *
 * <p>Behind a balancer speaking the PROXY protocol the TCP peer is the balancer, not the client: connections
 * from its {@link #exempt trusted sources} are not counted at accept but once the header names the client
 * ({@link #admitProxied}), so the limit holds per real client, not per balancer.
 */
@ChannelHandler.Sharable
public final class PerClientConnections extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(PerClientConnections.class);

    private final String listener;
    private final int max;
    private final ConcurrentHashMap<InetAddress, Integer> open = new ConcurrentHashMap<>();
    private final LongAdder rejected = new LongAdder();
    private final LogThrottle rejectLog = new LogThrottle();
    private volatile java.util.List<AddressBlock> exempt = java.util.List.of();

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
        if (client != null && AddressBlock.anyContains(exempt, client)) {
            ctx.fireChannelRead(child); // a balancer: counted by the PROXY header's address (admitProxied)
            return;
        }
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

    /** Sources whose connections are counted by their PROXY header's address instead of at accept. */
    public void exempt(java.util.List<AddressBlock> trustedSources) {
        this.exempt = java.util.List.copyOf(trustedSources);
    }

    /**
     * Counts {@code child}, from a trusted balancer, as a connection of {@code client} named by its PROXY header;
     * false (counted as a rejection) when the client already holds its limit. Released when {@code child} closes.
     */
    public boolean admitProxied(Channel child, InetAddress client) {
        if (!acquire(client)) {
            rejected.increment();
            return false;
        }
        child.closeFuture().addListener((ChannelFutureListener) f -> release(client));
        return true;
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
