package io.loadwise.dispatcher.tcp;

import io.loadwise.dispatcher.net.ClientAddress;
import io.loadwise.dispatcher.net.ProxyHeaderSender;
import io.loadwise.dispatcher.acquire.NodeAcquisition;
import io.loadwise.dispatcher.acquire.Outcome;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.ChannelInputShutdownReadComplete;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * TDCR-03: when a client connects, gets it a node connection on the client channel's own event loop through
 * the same {@link NodeAcquisition} as L7 requests: a refused or timed-out connect marks the node down for
 * {@code unhealthyRetryMs}, reports it to outlier detection, asks for a new picker and tries the next node,
 * up to {@code connectAttempts} nodes; then the client is closed. On success it hands both channels to a
 * {@link Relay} each, starts reading and leaves the pipeline.
 */
final class TunnelOpener extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(TunnelOpener.class);

    private final VirtualCluster cluster;
    private final TunnelConnector connector;
    private ChannelHandlerContext ctx;
    private Tunnel tunnel;
    private NodeAcquisition acquisition;
    /** Bytes the client sent before the tunnel opened (see {@link #channelRead}). */
    private final List<Object> early = new ArrayList<>(2);
    private boolean earlyEndOfInput;

    TunnelOpener(VirtualCluster cluster, TunnelConnector connector) {
        this.cluster = cluster;
        this.connector = connector;
    }

    @Override
    public void channelActive(ChannelHandlerContext context) {
        ctx = context;
        Channel client = ctx.channel();
        tunnel = new Tunnel(cluster, ClientAddress.of(client), client.eventLoop().ticker());
        // A tunnel's first choice is the policy's; TCP clusters neither queue nor pin, so nothing waits in line.
        acquisition = new NodeAcquisition(cluster, client.eventLoop(), target -> cluster.pick(null), connector,
                this::onAcquired, queueDeadline -> { });
        client.closeFuture().addListener(tunnel);
        client.closeFuture().addListener(closed -> acquisition.finish()); // a connect still in flight is let go
        acquisition.start(null);
        ctx.fireChannelActive();
    }

    /** The acquisition's one result: open the tunnel over the node connection, or close the client. */
    private void onAcquired(Outcome outcome) {
        Channel client = ctx.channel();
        if (outcome instanceof Outcome.Refused refused) {
            log.warn("cluster {}: {}; closing {}", cluster.name(), refused.reason(), ClientAddress.of(client));
            client.close();
            return;
        }
        Outcome.Connected connected = (Outcome.Connected) outcome;
        Channel backend = connected.channel();
        if (!client.isActive()) {
            backend.close();
            return;
        }
        tunnel.backendConnected(connected.node(), connected.waitNanos());
        String send = cluster.config().sendProxyProtocol();
        if (send != null) {
            ProxyHeaderSender.write(send, client, backend);
            backend.flush();
        }
        backend.pipeline().addLast(new Relay(client, tunnel::countOut));
        ctx.pipeline().addLast(new Relay(backend, tunnel::countIn));
        handOver(ctx);
        backend.read();
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
