package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.acquire.NodeConnector;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.http.codec.NodeCodec;
import io.loadwise.dispatcher.net.ProxyHeaderSender;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ServerChannel;
import io.netty.util.Attribute;
import io.netty.util.AttributeKey;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A cluster's {@code sendProxyProtocol} in http mode: the node connections of one client connection to one node,
 * as HAProxy's "private" server connections with {@code send-proxy}. A connection is opened for this client alone,
 * the client's PROXY header its first bytes ({@link ProxyHeaderSender#sendFirst}); when its exchange ends it is
 * parked here, for this client's later requests only, and never goes to the shared {@link NodePool}. It closes
 * when the client connection closes, after the pool's idle time, or when another client waits for a slot of a
 * full pool (oldest parked first). The streams of an HTTP/2 client connection share its private connections.
 *
 * <p>The shared pool still counts every connection against {@code maxConnectionsPerNode} and keeps the line of
 * requests waiting for one to close; a connection released while a request of the same client waits in that line
 * goes to it, one released while only other clients wait closes to make room. On the client's event loop.
 */
final class PrivateConnections implements NodeConnections {

    private static final AttributeKey<Map<NodePool, PrivateConnections>> KEY =
            AttributeKey.valueOf(PrivateConnections.class, "private-node-connections");

    private final Channel client;
    private final NodePool shared;
    private final ChannelInitializer<Channel> pipeline;
    /** Parked, oldest first. */
    private final ArrayDeque<Channel> idle = new ArrayDeque<>();
    /** This client's requests waiting in the shared pool's line. */
    private final List<Pending> pending = new ArrayList<>(1);
    private boolean expiryScheduled;

    private PrivateConnections(Channel client, NodePool shared, String version, int maxHeadBytes) {
        this.client = client;
        this.shared = shared;
        this.pipeline = new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                NodeCodec codec = new NodeCodec(maxHeadBytes, shared.node().counters());
                ch.pipeline().addLast("codec", codec);
                ch.pipeline().addLast(BackendHandler.NAME, new BackendHandler(PrivateConnections.this, codec));
                ProxyHeaderSender.sendFirst(version, client, ch.pipeline()); // first, ahead of TLS too
                ch.closeFuture().addListener(f -> idle.remove(ch));
            }
        };
    }

    /**
     * The private connections to {@code shared}'s node of the client connection {@code client} belongs to (an
     * HTTP/2 stream's: its connection's); made at its first request, closed with it.
     */
    static PrivateConnections of(Channel client, NodePool shared, String version, int maxHeadBytes) {
        Channel connection = client.parent() != null && !(client.parent() instanceof ServerChannel)
                ? client.parent() : client;
        Attribute<Map<NodePool, PrivateConnections>> attr = connection.attr(KEY);
        Map<NodePool, PrivateConnections> all = attr.get();
        if (all == null) {
            all = new IdentityHashMap<>(4);
            attr.set(all);
            Map<NodePool, PrivateConnections> closing = all;
            connection.closeFuture().addListener(f -> {
                for (PrivateConnections p : closing.values()) {
                    p.closeIdle();
                }
            });
        }
        PrivateConnections p = all.get(shared);
        if (p == null) {
            p = new PrivateConnections(connection, shared, version, maxHeadBytes);
            all.put(shared, p);
        }
        return p;
    }

    @Override
    public NodeState node() {
        return shared.node();
    }

    /** Connections parked for this client now (tests). */
    int idle() {
        return idle.size();
    }

    @Override
    public void acquire(NodeConnector.Waiter waiter) {
        Channel channel;
        long now = shared.ticker().nanoTime();
        while ((channel = idle.pollLast()) != null) {
            shared.parked(channel, false);
            if (now - BackendHandler.of(channel).releasedNanos() > shared.maxIdleNanos()) {
                channel.close();
            } else if (channel.isActive()) {
                waiter.onBackendReady(channel);
                return;
            }
        }
        Pending p = new Pending(waiter);
        pending.add(p);
        shared.acquire(p);
    }

    @Override
    public void cancel(NodeConnector.Waiter waiter) {
        for (int i = 0; i < pending.size(); i++) {
            if (pending.get(i).waiter == waiter) {
                shared.cancel(pending.remove(i));
                return;
            }
        }
    }

    /** Kept for this client (a request of its own waiting gets it at once), or closed when the client is gone. */
    @Override
    public void release(Channel channel) {
        if (!channel.isActive()) {
            return;
        }
        if (!client.isActive()) {
            channel.close();
            return;
        }
        for (int i = 0; i < pending.size(); i++) {
            if (shared.withdraw(pending.get(i))) { // in line, not being connected for
                pending.remove(i).waiter.onBackendReady(channel);
                return;
            }
        }
        if (shared.hasWaiters()) {
            channel.close(); // another client waits for a slot of the full pool
            return;
        }
        BackendHandler.of(channel).released(shared.ticker().nanoTime());
        idle.addLast(channel);
        shared.parked(channel, true);
        if (!expiryScheduled) {
            expiryScheduled = true;
            client.eventLoop().schedule(this::expire, shared.maxIdleNanos(), TimeUnit.NANOSECONDS);
        }
    }

    /** Closes what idled longer than the pool's idle time; looks again when the next one would. */
    private void expire() {
        expiryScheduled = false;
        long now = shared.ticker().nanoTime();
        Channel oldest;
        while ((oldest = idle.peekFirst()) != null) {
            long due = BackendHandler.of(oldest).releasedNanos() + shared.maxIdleNanos();
            if (due - now > 0) {
                expiryScheduled = true;
                client.eventLoop().schedule(this::expire, due - now, TimeUnit.NANOSECONDS);
                return;
            }
            idle.pollFirst();
            oldest.close();
        }
    }

    @Override
    public void closeIdle() {
        Channel channel;
        while ((channel = idle.pollFirst()) != null) {
            channel.close();
        }
    }

    /** A request of this client in the shared pool's line: its connection is opened with this client's pipeline. */
    private final class Pending implements NodePool.Private {

        private final NodeConnector.Waiter waiter;

        Pending(NodeConnector.Waiter waiter) {
            this.waiter = waiter;
        }

        @Override
        public ChannelInitializer<Channel> pipeline() {
            return pipeline;
        }

        @Override
        public void onBackendReady(Channel backend) {
            pending.remove(this);
            waiter.onBackendReady(backend);
        }

        @Override
        public void onBackendFailed(Throwable cause) {
            pending.remove(this);
            waiter.onBackendFailed(cause);
        }
    }
}
