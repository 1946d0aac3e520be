package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.acquire.NodeConnector;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.http.codec.NodeCodec;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.util.concurrent.Ticker;
import java.net.SocketAddress;
import java.util.ArrayDeque;

/**
 * Keep-alive connections from one event loop to one node, at most {@code max} open at a time. Used only
 * on its event loop, so it needs no locks. Idle connections are reused most-recently-released first
 * (the warmest); a request that finds the pool full waits in line for a released or closed one.
 *
 * <p>A connection idle for longer than {@code maxIdle} is closed instead of reused: nodes close idle
 * keep-alive connections themselves (Apache httpd after 5 s, Tomcat after 20 s), and a request written
 * just as the node's close crosses it would fail with nothing the proxy can safely retry. HAProxy purges
 * idle server connections after 5 s by default for the same reason.
 */
final class NodePool implements NodeConnections {

    /** Opens a node connection with the given pipeline; sockets in production, embedded channels in tests. */
    interface Connector {
        ChannelFuture connect(ChannelInitializer<Channel> pipeline);
    }

    /** Connects sockets to {@code address} with the event loop's {@code base} bootstrap. */
    static Connector socketConnector(Bootstrap base, SocketAddress address) {
        return pipeline -> base.clone().handler(pipeline).connect(address);
    }

    /**
     * Whoever asked for a connection; called on the pool's event loop. The pool takes any
     * {@link NodeConnector.Waiter} (in production the client connection's {@code NodeAcquisition}); this name
     * stays for code that waits on a pool directly.
     */
    interface Waiter extends NodeConnector.Waiter {
    }

    /**
     * A waiter whose connection is opened for one client connection alone, with its own pipeline
     * ({@link PrivateConnections}, {@code sendProxyProtocol}): it never takes a shared idle connection.
     */
    interface Private extends NodeConnector.Waiter {
        ChannelInitializer<Channel> pipeline();
    }

    private final NodeState node;
    private final Connector connector;
    private final Ticker ticker;
    private final ChannelInitializer<Channel> pipeline;
    private final int max;
    private final long maxIdleNanos;
    private final ArrayDeque<Channel> idle = new ArrayDeque<>();
    private final ArrayDeque<NodeConnector.Waiter> waiters = new ArrayDeque<>();
    private final ChannelFutureListener onClose = this::onClose;
    /** Private connections parked idle by their clients, oldest first: closed first when a client waits. */
    private final ArrayDeque<Channel> parked = new ArrayDeque<>();
    private int open;

    /**
     * @param connector opens node connections with the pipeline this pool gives it
     * @param ticker the pool's event loop's clock
     * @param maxHeadBytes the largest response head read from the node
     */
    NodePool(NodeState node, Connector connector, Ticker ticker, int maxHeadBytes, int max, long maxIdleNanos) {
        this.node = node;
        this.ticker = ticker;
        this.connector = connector;
        this.max = max;
        this.maxIdleNanos = maxIdleNanos;
        this.pipeline = new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                NodeCodec codec = new NodeCodec(maxHeadBytes, node.counters()); // counts the node's bytes too
                ch.pipeline().addLast("codec", codec);
                ch.pipeline().addLast(BackendHandler.NAME, new BackendHandler(NodePool.this, codec));
            }
        };
    }

    @Override
    public NodeState node() {
        return node;
    }

    /** Hands {@code waiter} a connection now, after connecting, or when one is free. */
    @Override
    public void acquire(NodeConnector.Waiter waiter) {
        Channel channel;
        long now = ticker.nanoTime();
        while (!(waiter instanceof Private) && (channel = idle.pollLast()) != null) {
            if (now - BackendHandler.of(channel).releasedNanos() > maxIdleNanos) {
                channel.close(); // the newest is stale, so are all the older ones
                closeIdle();
            } else if (channel.isActive()) {
                waiter.onBackendReady(channel);
                return;
            }
        }
        if (open < max) {
            connect(waiter);
        } else {
            waiters.addLast(waiter);
            Channel oldest = parked.pollFirst();
            if (oldest != null) {
                oldest.close(); // the slot it frees opens a connection for the first in line
            }
        }
    }

    /** Gives up waiting (the request timed out or its client left). */
    @Override
    public void cancel(NodeConnector.Waiter waiter) {
        waiters.remove(waiter);
    }

    /** Returns a connection whose exchange completed cleanly; it serves the next waiter or idles. */
    @Override
    public void release(Channel channel) {
        if (!channel.isActive()) {
            return;
        }
        NodeConnector.Waiter waiter = waiters.pollFirst();
        if (waiter != null) {
            waiter.onBackendReady(channel);
        } else {
            BackendHandler.of(channel).released(ticker.nanoTime());
            idle.addLast(channel);
        }
    }

    int open() {
        return open;
    }

    /** Takes {@code waiter} out of the line; whether it was there (not connected for, nor served). */
    boolean withdraw(NodeConnector.Waiter waiter) {
        return waiters.remove(waiter);
    }

    /** Whether requests wait in line for a connection to close (a full pool). */
    boolean hasWaiters() {
        return !waiters.isEmpty();
    }

    long maxIdleNanos() {
        return maxIdleNanos;
    }

    Ticker ticker() {
        return ticker;
    }

    /** A private connection went idle with its client ({@code true}) or was taken again. */
    void parked(Channel channel, boolean idleNow) {
        if (idleNow) {
            parked.addLast(channel);
        } else {
            parked.remove(channel);
        }
    }

    int idle() {
        return idle.size();
    }

    /** Closes the idle connections (the listener is shutting down). */
    @Override
    public void closeIdle() {
        Channel channel;
        while ((channel = idle.pollFirst()) != null) {
            channel.close();
        }
        while ((channel = parked.pollFirst()) != null) {
            channel.close();
        }
    }

    private void connect(NodeConnector.Waiter waiter) {
        open++;
        ChannelFuture connect = connector.connect(waiter instanceof Private p ? p.pipeline() : pipeline);
        connect.channel().closeFuture().addListener(onClose);
        connect.addListener((ChannelFuture f) -> {
            if (f.isSuccess()) {
                node.markConnectSuccess();
                waiter.onBackendReady(f.channel());
            } else {
                waiter.onBackendFailed(f.cause());
            }
        });
    }

    private void onClose(ChannelFuture closed) {
        open--;
        idle.remove(closed.channel());
        parked.remove(closed.channel());
        NodeConnector.Waiter waiter;
        if (open < max && (waiter = waiters.pollFirst()) != null) {
            connect(waiter);
        }
    }
}
