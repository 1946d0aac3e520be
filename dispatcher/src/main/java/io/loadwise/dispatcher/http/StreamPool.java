package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.acquire.NodeConnector;
import io.loadwise.dispatcher.cluster.NodeState;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2SettingsFrame;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamChannelBootstrap;
import io.netty.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams on multiplexed HTTP/2 connections from one event loop to one node ({@code nodeProtocol} {@code h2} or
 * {@code h2c}): each request gets a stream of its own, a {@link Http2StreamChannel} that reads and writes HTTP/1.1
 * objects ({@link NodeStream}) and ends in a {@link BackendHandler}, so the exchange cannot tell it from a
 * keep-alive connection.
 *
 * <p>A connection carries at most {@code min(the node's SETTINGS_MAX_CONCURRENT_STREAMS,}
 * {@value #MAX_STREAMS_PER_CONNECTION}{@code )} streams at a time; a request that finds every connection full
 * opens another, up to {@code maxConnectionsPerNode}, and beyond that waits in line for a stream to end. A
 * connection counts as ready (and the node as reachable) only once the node's SETTINGS came, so a node that does
 * not speak HTTP/2 fails the connect and the request goes to another node. A GOAWAY drains its connection: no
 * new stream goes there, the streams the node kept finish, those above its last stream id close and their
 * exchanges retry under the cluster's {@code retryOn}. A connection that dies closes its streams, which fails
 * their exchanges (502, RST_STREAM or a gRPC status). Used only on its event loop: no locks.
 */
final class StreamPool implements NodeConnections {

    /**
     * Streams per connection at most, whatever the node allows: with 100 (the value RFC 9113 recommends as a
     * minimum, and grpc-java's and Envoy's default) one connection's flow-control window and head-of-line
     * blocking stay shared by few requests; more concurrent requests open more connections.
     */
    static final int MAX_STREAMS_PER_CONNECTION = 100;

    private static final Logger log = LoggerFactory.getLogger(StreamPool.class);

    /** Streams the node opens (server push is disabled in our SETTINGS): closed at once. */
    private static final ChannelHandler REFUSE_PUSH = new RefusePush();

    private final NodeState node;
    private final NodePool.Connector connector;
    private final int maxConnections;
    private final int maxHeadBytes;
    /** Whether the connection is TLS: ALPN must then have chosen {@code h2}. */
    private final boolean tls;
    private final List<Link> links = new ArrayList<>();
    private final ArrayDeque<NodeConnector.Waiter> waiters = new ArrayDeque<>();
    private final ChannelInitializer<Http2StreamChannel> streamPipeline;

    StreamPool(NodeState node, NodePool.Connector connector, int maxHeadBytes, int maxConnections, boolean tls) {
        this.node = node;
        this.connector = connector;
        this.maxConnections = maxConnections;
        this.maxHeadBytes = maxHeadBytes;
        this.tls = tls;
        this.streamPipeline = new ChannelInitializer<Http2StreamChannel>() {
            @Override
            protected void initChannel(Http2StreamChannel ch) {
                ch.pipeline().addLast("h2-http", new Http2StreamFrameToHttpObjectCodec(false, false));
                ch.pipeline().addLast(NodeStream.NAME, new NodeStream());
                ch.pipeline().addLast(BackendHandler.NAME, new BackendHandler(StreamPool.this, null));
            }
        };
    }

    @Override
    public NodeState node() {
        return node;
    }

    /** Connections open or being opened (tests and status). */
    int connections() {
        return links.size();
    }

    /** Streams open on all connections. */
    int streams() {
        int n = 0;
        for (Link link : links) {
            n += link.streams;
        }
        return n;
    }

    @Override
    public void acquire(NodeConnector.Waiter waiter) {
        for (Link link : links) {
            if (link.hasRoom()) {
                openStream(link, waiter);
                return;
            }
        }
        for (Link link : links) {
            if (!link.ready && !link.draining && link.streams + link.pending.size() < MAX_STREAMS_PER_CONNECTION) {
                link.pending.addLast(waiter); // it may allow fewer: the surplus waits in line when its SETTINGS come
                return;
            }
        }
        if (links.size() < maxConnections) {
            connect(waiter);
        } else {
            waiters.addLast(waiter);
        }
    }

    @Override
    public void cancel(NodeConnector.Waiter waiter) {
        if (!waiters.remove(waiter)) {
            for (Link link : links) {
                if (link.pending.remove(waiter)) {
                    return;
                }
            }
        }
    }

    /** A stream whose exchange ended: reset unless both sides ended it, which closes it by itself. */
    @Override
    public void release(Channel channel) {
        NodeStream stream = channel.pipeline().get(NodeStream.class);
        if (channel.isActive() && (stream == null || !stream.ended())) {
            channel.close();
        }
    }

    @Override
    public void closeIdle() {
        for (Link link : List.copyOf(links)) {
            if (link.streams == 0 && link.channel != null) {
                link.channel.close();
            }
        }
    }

    private void connect(NodeConnector.Waiter waiter) {
        Link link = new Link();
        links.add(link);
        link.pending.addLast(waiter);
        ChannelFuture connect = connector.connect(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                Http2Settings settings = Http2Settings.defaultSettings().pushEnabled(false)
                        .maxHeaderListSize(maxHeadBytes);
                ch.pipeline().addLast(TrafficMeter.NAME, new TrafficMeter(node.counters(), false)); // frames too
                ch.pipeline().addLast("h2", Http2FrameCodecBuilder.forClient().initialSettings(settings)
                        .autoAckSettingsFrame(true).autoAckPingFrame(true).build());
                ch.pipeline().addLast("h2-streams", new Http2MultiplexHandler(REFUSE_PUSH));
                ch.pipeline().addLast("h2-link", link);
            }
        });
        link.channel = connect.channel();
        connect.channel().closeFuture().addListener(f -> linkClosed(link));
        connect.addListener((ChannelFuture f) -> {
            link.connected = true;
            if (!f.isSuccess()) {
                failPending(link, f.cause());
            } else if (!f.channel().isActive()) {
                failPending(link, new IOException("node " + node.name() + " closed the connection"));
            } else if (tls && !ApplicationProtocolNames.HTTP_2.equals(alpn(f.channel()))) {
                failPending(link, new IOException("node " + node.name() + " did not agree to h2 (ALPN: "
                        + alpn(f.channel()) + ")"));
                f.channel().close();
            }
        });
    }

    private static String alpn(Channel channel) {
        SslHandler ssl = channel.pipeline().get(SslHandler.class);
        return ssl == null ? null : ssl.applicationProtocol();
    }

    private void openStream(Link link, NodeConnector.Waiter waiter) {
        link.streams++;
        new Http2StreamChannelBootstrap(link.channel).handler(streamPipeline).open()
                .addListener((Future<Http2StreamChannel> f) -> {
                    if (f.isSuccess()) {
                        f.getNow().closeFuture().addListener(c -> streamClosed(link));
                        waiter.onBackendReady(f.getNow());
                    } else {
                        link.streams--;
                        waiter.onBackendFailed(f.cause());
                    }
                });
    }

    private void streamClosed(Link link) {
        link.streams--;
        if (link.draining && link.streams == 0) {
            link.channel.close();
        }
        serveWaiters();
    }

    private void serveWaiters() {
        NodeConnector.Waiter waiter;
        while ((waiter = waiters.peekFirst()) != null) {
            Link room = null;
            for (Link link : links) {
                if (link.hasRoom()) {
                    room = link;
                    break;
                }
            }
            if (room != null) {
                openStream(room, waiters.pollFirst());
            } else if (links.size() < maxConnections) {
                connect(waiters.pollFirst());
            } else {
                return;
            }
        }
    }

    private void failPending(Link link, Throwable cause) {
        NodeConnector.Waiter waiter;
        while ((waiter = link.pending.pollFirst()) != null) {
            waiter.onBackendFailed(cause);
        }
    }

    private void linkClosed(Link link) {
        links.remove(link);
        link.draining = true;
        if (link.connected && !link.pending.isEmpty()) { // else the connect's outcome fails them, with its cause
            failPending(link, new IOException("node " + node.name() + " closed the HTTP/2 connection before its "
                    + "SETTINGS"));
        }
        serveWaiters();
    }

    /** The node's SETTINGS came: the connection is ready and says how many streams it takes. */
    private void onSettings(Link link, Http2Settings settings) {
        Long max = settings.maxConcurrentStreams();
        if (max != null) {
            link.limit = (int) Math.min(MAX_STREAMS_PER_CONNECTION, max);
        }
        if (link.ready) {
            serveWaiters(); // a raised limit
            return;
        }
        link.ready = true;
        node.markConnectSuccess();
        NodeConnector.Waiter waiter;
        while ((waiter = link.pending.pollFirst()) != null) {
            if (link.hasRoom()) {
                openStream(link, waiter);
            } else {
                waiters.addLast(waiter);
            }
        }
        serveWaiters();
    }

    private void onGoAway(Link link, Http2GoAwayFrame goAway) {
        log.debug("node {}: GOAWAY ({}, last stream {}): connection drained", node.name(), goAway.errorCode(),
                goAway.lastStreamId());
        link.draining = true;
        if (link.streams == 0) {
            link.channel.close();
        }
        serveWaiters();
    }

    /** One HTTP/2 connection to the node: the last handler of its pipeline, after the streams' multiplexer. */
    private final class Link extends ChannelInboundHandlerAdapter {

        private final ArrayDeque<NodeConnector.Waiter> pending = new ArrayDeque<>();
        private Channel channel;
        /** The connect's outcome is known. */
        private boolean connected;
        /** The node's SETTINGS came. */
        private boolean ready;
        /** GOAWAY came, or the connection closed: no new stream. */
        private boolean draining;
        private int limit = MAX_STREAMS_PER_CONNECTION;
        /** Streams opened on it and not closed yet. */
        private int streams;

        boolean hasRoom() {
            return ready && !draining && streams < limit && channel.isActive();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof Http2SettingsFrame settings) {
                    onSettings(this, settings.settings());
                } else if (msg instanceof Http2GoAwayFrame goAway) {
                    onGoAway(this, goAway);
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            log.debug("node {}: HTTP/2 connection {}: {}", node.name(), ctx.channel(), cause.toString());
            ctx.close();
        }
    }

    @ChannelHandler.Sharable
    private static final class RefusePush extends ChannelInboundHandlerAdapter {
        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            ctx.close();
        }
    }
}
