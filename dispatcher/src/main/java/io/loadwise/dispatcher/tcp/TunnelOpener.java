package io.loadwise.dispatcher.tcp;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.net.Transport;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.ChannelInputShutdownReadComplete;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * TDCR-03: when a client connects, picks a node and connects to it on the client channel's own event
 * loop. A refused or timed-out connect marks the node down for {@code unhealthyRetryMs} and tries the
 * next node, up to {@code connectAttempts} nodes; then the client is closed. On success it hands both
 * channels to a {@link Relay} each, starts reading and leaves the pipeline.
 */
final class TunnelOpener extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(TunnelOpener.class);

    private final VirtualCluster cluster;
    private final Transport transport;
    private Tunnel tunnel;
    /** Bytes the client sent before the tunnel opened (see {@link #channelRead}). */
    private final List<Object> early = new ArrayList<>(2);
    private boolean earlyEndOfInput;

    TunnelOpener(VirtualCluster cluster, Transport transport) {
        this.cluster = cluster;
        this.transport = transport;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        tunnel = new Tunnel(cluster, ctx.channel().remoteAddress());
        ctx.channel().closeFuture().addListener(tunnel);
        connect(ctx, null, 1);
        ctx.fireChannelActive();
    }

    private void connect(ChannelHandlerContext ctx, NodeState avoid, int attempt) {
        NodeState node = cluster.pick(avoid);
        if (node == null) {
            log.warn("cluster {}: no usable node for {}, closing it", cluster.name(), ctx.channel().remoteAddress());
            ctx.close();
            return;
        }
        Channel client = ctx.channel();
        ClusterConfig config = cluster.config();
        long started = System.nanoTime();
        Bootstrap bootstrap = new Bootstrap()
                .group(client.eventLoop())
                .channel(transport.socketChannelClass())
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, config.connectTimeoutMsOrDefault())
                .option(ChannelOption.AUTO_READ, false)
                .option(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new Relay(client, tunnel::countOut));
        bootstrap.connect(node.address()).addListener((ChannelFuture connected) -> {
            Channel backend = connected.channel();
            if (!client.isActive()) {
                backend.close();
                return;
            }
            if (connected.isSuccess()) {
                node.markConnectSuccess();
                tunnel.backendConnected(node, System.nanoTime() - started);
                ctx.pipeline().addLast(new Relay(backend, tunnel::countIn));
                handOver(ctx);
                backend.read();
                return;
            }
            node.markConnectFailure(config.unhealthyRetryMsOrDefault());
            log.warn("cluster {}: cannot connect to node {} ({}), out for {} ms", cluster.name(), node,
                    connected.cause().toString(), config.unhealthyRetryMsOrDefault());
            if (attempt < config.connectAttemptsOrDefault()) {
                connect(ctx, node, attempt + 1);
            } else {
                log.warn("cluster {}: {} connect attempts failed, closing {}", cluster.name(), attempt,
                        client.remoteAddress());
                client.close();
            }
        });
    }

    /**
     * Replays what arrived early into the new {@link Relay}; its read-complete handling then asks for
     * more client bytes once they are written.
     */
    private void handOver(ChannelHandlerContext ctx) {
        for (Object msg : early) {
            ctx.fireChannelRead(msg);
        }
        early.clear();
        ctx.fireChannelReadComplete();
        if (earlyEndOfInput) {
            ctx.fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
            ctx.fireUserEventTriggered(ChannelInputShutdownReadComplete.INSTANCE);
        }
        ctx.pipeline().remove(this);
    }

    /**
     * AUTO_READ is off, but a client that half-closes before the tunnel opens is read to its end: Netty 4.2
     * reports the FIN ({@code ChannelInputShutdownEvent}) before it has read the bytes ahead of it unless
     * asked to read, so the event asks, and the input is over at {@code ChannelInputShutdownReadComplete}.
     * What a client sends before its FIN is kept until the tunnel opens; it is bounded by the socket's
     * receive buffer since the client cannot send after its FIN.
     */
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        early.add(msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt == ChannelInputShutdownEvent.INSTANCE) {
            ctx.read(); // drain what came before the FIN (bounded by the receive buffer)
            return;
        }
        if (evt == ChannelInputShutdownReadComplete.INSTANCE) {
            earlyEndOfInput = true;
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        for (Object msg : early) {
            ReferenceCountUtil.release(msg);
        }
        early.clear();
    }
}
