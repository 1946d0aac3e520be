package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection: feeds its requests, one at a time, to its {@link Exchange}; queues what a
 * pipelining client sends meanwhile; pauses reading while anything waits; closes the connection when
 * idle (QoS-01); and, in per-connection mode, holds the node connection the client is bound to.
 */
final class FrontendHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(FrontendHandler.class);

    /** Reasons to stop reading from the client; reading resumes when none is left. */
    static final int PAUSE_CONNECT = 1;
    static final int PAUSE_BACKPRESSURE = 2;
    static final int PAUSE_QUEUE = 4;
    static final int PAUSE_UPGRADE = 8;

    private final HttpProxyServer server;
    private final VirtualCluster cluster;
    private final Exchange exchange;
    private final ArrayDeque<Object> queued = new ArrayDeque<>(4);

    private Channel client;
    private BackendPools pools;
    private String clientIp;
    private int paused;
    private boolean closing;
    private boolean reading;

    // Balance.PER_CONNECTION: the node and connection this client is bound to (TDCR-04).
    private NodeState boundNode;
    private Channel boundBackend;

    FrontendHandler(HttpProxyServer server) {
        this.server = server;
        this.cluster = server.cluster();
        this.exchange = new Exchange(server, this);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        client = ctx.channel();
        pools = server.poolsFor(client.eventLoop());
        InetSocketAddress remote = (InetSocketAddress) client.remoteAddress();
        clientIp = remote.getAddress() != null ? remote.getAddress().getHostAddress() : remote.getHostString();
        cluster.counters().connectionOpened();
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        reading = true;
        if (closing) {
            ReferenceCountUtil.release(msg);
        } else if (!queued.isEmpty() || !exchange.accepts(msg)) {
            queued.addLast(msg);
            pause(PAUSE_QUEUE);
        } else {
            process(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        reading = false;
        exchange.flushBackend();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        exchange.onClientWritabilityChanged(client.isWritable());
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent) {
            if (!exchange.active()) {
                log.debug("closing idle client connection {}", client);
                ctx.close();
            }
        } else {
            ctx.fireUserEventTriggered(evt);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closing = true;
        releaseQueued();
        exchange.onClientClosed();
        unbind(true);
        cluster.counters().connectionClosed();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("client connection {}: {}", ctx.channel(), cause.toString());
        ctx.close();
    }

    private void process(Object msg) {
        if (msg instanceof HttpRequest request) {
            if (request.decoderResult().isFailure()) {
                reject(request);
            } else {
                exchange.begin(request);
            }
        } else if (msg instanceof HttpContent content) {
            exchange.onRequestContent(content);
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    /** Goes on with queued messages once the exchange can take them; called when an exchange ends. */
    void drain() {
        while (!queued.isEmpty() && !closing && exchange.accepts(queued.peekFirst())) {
            process(queued.pollFirst());
        }
        if (closing) {
            releaseQueued();
        }
        if (queued.isEmpty()) {
            resume(PAUSE_QUEUE);
        }
    }

    /** The codec could not decode the request head (malformed, or over the size limits). */
    private void reject(HttpRequest request) {
        Throwable cause = request.decoderResult().cause();
        ReferenceCountUtil.release(request);
        cluster.counters().requestStarted();
        cluster.counters().requestFailed();
        HttpResponseStatus rejection = ErrorResponses.statusForDecoderFailure(cause);
        String reason = rejection == HttpResponseStatus.BAD_REQUEST ? "malformed request"
                : "request head larger than " + cluster.config().maxHeaderBytesOrDefault() + " bytes";
        log.debug("client {}: {} ({})", clientIp, reason, cause.toString());
        Exchange.logAccess(clientIp, null, null, null, rejection.code(), 0);
        closeAfter(ErrorResponses.of(rejection, reason, true));
    }

    /** Writes {@code last} (the final response, or an empty buffer) and closes the connection after it. */
    void closeAfter(Object last) {
        closing = true;
        releaseQueued();
        client.writeAndFlush(last).addListener(ChannelFutureListener.CLOSE);
    }

    void closeAfterResponse() {
        closeAfter(Unpooled.EMPTY_BUFFER);
    }

    /** Writes an error response and keeps the connection for the next request. */
    void respondAndContinue(FullHttpResponse response) {
        client.writeAndFlush(response, client.voidPromise());
        drain();
    }

    /** Closes at once: a response was cut off, or the client is gone. */
    void abort() {
        closing = true;
        releaseQueued();
        client.close();
    }

    /** The client connection is handed to an upgraded protocol: this handler is leaving the pipeline. */
    void handOver() {
        closing = true;
        releaseQueued();
    }

    Channel client() {
        return client;
    }

    BackendPools pools() {
        return pools;
    }

    String clientIp() {
        return clientIp;
    }

    boolean reading() {
        return reading;
    }

    NodeState boundNode() {
        return boundNode;
    }

    Channel boundBackend() {
        return boundBackend;
    }

    /** Per-connection mode: this client now uses {@code backend} to {@code node} until it closes. */
    void bind(NodeState node, Channel backend) {
        boundNode = node;
        boundBackend = backend;
        node.assignmentStarted();
    }

    /**
     * Per-connection mode: forgets the bound node. Its connection goes back to the pool if asked and not
     * in use by an exchange (which then closes it itself).
     */
    void unbind(boolean returnToPool) {
        if (boundNode != null) {
            boundNode.assignmentEnded();
            boundNode = null;
        }
        Channel channel = boundBackend;
        boundBackend = null;
        if (channel != null && channel != exchange.backend()) {
            BackendHandler handler = BackendHandler.of(channel);
            handler.detach();
            if (returnToPool) {
                handler.pool().release(channel);
            }
        }
    }

    void pause(int reason) {
        int before = paused;
        paused |= reason;
        if (before == 0) {
            client.config().setAutoRead(false);
        }
    }

    void resume(int reasons) {
        if ((paused & reasons) == 0) {
            return;
        }
        paused &= ~reasons;
        if (paused == 0 && !closing) {
            client.config().setAutoRead(true);
        }
    }

    private void releaseQueued() {
        Object msg;
        while ((msg = queued.pollFirst()) != null) {
            ReferenceCountUtil.release(msg);
        }
    }
}
