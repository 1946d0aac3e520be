package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.Affinity;
import io.loadwise.dispatcher.config.Balance;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection: takes each request, chooses its node, relays request and response with
 * backpressure, and answers with an error when the exchange cannot complete. Requests are handled one
 * at a time; pipelined ones wait (reading paused) until the previous response is complete.
 *
 * <p>Every counter started here ends exactly once: {@link #complete()} or {@link #fail} closes an
 * exchange, and both are guarded by {@link #active}.
 */
final class FrontendHandler extends ChannelInboundHandlerAdapter implements NodePool.Waiter {

    private static final Logger log = LoggerFactory.getLogger(FrontendHandler.class);
    private static final Logger accessLog = LoggerFactory.getLogger("loadwise.access");

    private static final int PAUSE_CONNECT = 1;
    private static final int PAUSE_BACKPRESSURE = 2;
    private static final int PAUSE_QUEUE = 4;
    private static final int PAUSE_UPGRADE = 8;

    private final HttpProxyServer server;
    private final VirtualCluster cluster;
    private final SessionAffinity affinity;
    private final boolean perConnection;
    private final long responseTimeoutNanos;
    private final int connectAttempts;
    private final int unhealthyRetryMs;
    private final Runnable timeoutTask = this::onResponseTimeout;
    private final ArrayDeque<Object> queued = new ArrayDeque<>(4);

    private Channel client;
    private BackendPools pools;
    private String clientIp;
    private int paused;
    private boolean closing;
    private boolean flushBackend;

    // The exchange in progress.
    private boolean active;
    private boolean headSent;
    private boolean requestDone;
    /** The request declares no body: only an empty last chunk follows its head. */
    private boolean bodyless;
    private boolean responseStarted;
    private boolean informational;
    private boolean keepAlive;
    private boolean http10;
    private boolean headRequest;
    private boolean upgrade;
    private boolean backendKeepAlive;
    private boolean insertCookie;
    private HttpRequest head;
    private HttpMethod method;
    private String uri;
    private NodeState node;
    private Channel backend;
    private NodePool waitingOn;
    private int attempts;
    private int status;
    private long startNanos;
    private long acquireNanos;
    private long sentNanos;
    private long requestDoneNanos;
    private long uploadChunks;
    private long uploadChunksSeen;
    private ScheduledFuture<?> timer;

    // Balance.PER_CONNECTION: the node and connection this client is bound to (TDCR-04).
    private NodeState boundNode;
    private Channel boundBackend;

    FrontendHandler(HttpProxyServer server) {
        this.server = server;
        this.cluster = server.cluster();
        ClusterConfig config = cluster.config();
        this.affinity = config.affinityOrDefault() == Affinity.COOKIE ? server.sessionAffinity() : null;
        this.perConnection = config.balanceOrDefault() == Balance.PER_CONNECTION;
        this.responseTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(config.responseTimeoutMsOrDefault());
        this.connectAttempts = config.connectAttemptsOrDefault();
        this.unhealthyRetryMs = config.unhealthyRetryMsOrDefault();
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
        if (closing) {
            ReferenceCountUtil.release(msg);
        } else if (!queued.isEmpty() || !accepts(msg)) {
            queued.addLast(msg);
            pause(PAUSE_QUEUE);
        } else {
            process(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        flushBackend();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (backend != null) {
            backend.config().setAutoRead(client.isWritable());
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent) {
            if (!active) {
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
        fail(null, "client closed the connection");
        unbind(true);
        cluster.counters().connectionClosed();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("client connection {}: {}", ctx.channel(), cause.toString());
        ctx.close();
    }

    /** Whether {@code msg} can be handled now rather than queued behind the exchange in progress. */
    private boolean accepts(Object msg) {
        return !active || (headSent && !requestDone && !(msg instanceof HttpRequest));
    }

    private void process(Object msg) {
        if (msg instanceof HttpRequest request) {
            if (request.decoderResult().isFailure()) {
                reject(request);
            } else {
                begin(request);
            }
        } else if (msg instanceof HttpContent content) {
            if (!active || requestDone) {
                content.release();
            } else if (content.decoderResult().isFailure()) {
                content.release();
                fail(HttpResponseStatus.BAD_REQUEST, "malformed request body");
            } else {
                uploadChunks++;
                boolean last = content instanceof LastHttpContent;
                backend.write(content, backend.voidPromise());
                flushBackend = true;
                if (last) {
                    requestDone = true;
                    requestDoneNanos = System.nanoTime();
                    if (upgrade) {
                        pause(PAUSE_UPGRADE); // bytes after the request belong to the new protocol
                    }
                }
            }
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    private void drain() {
        while (!queued.isEmpty() && !closing && accepts(queued.peekFirst())) {
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
        if (accessLog.isDebugEnabled()) {
            accessLog.debug("{} - - - {} 0ms", clientIp, rejection.code());
        }
        closing = true;
        releaseQueued();
        client.writeAndFlush(ErrorResponses.of(rejection, reason, true)).addListener(ChannelFutureListener.CLOSE);
    }

    private void begin(HttpRequest request) {
        active = true;
        headSent = false;
        requestDone = false;
        responseStarted = false;
        informational = false;
        insertCookie = false;
        attempts = 0;
        status = 0;
        uploadChunks = 0;
        uploadChunksSeen = 0;
        startNanos = System.nanoTime();
        cluster.counters().requestStarted();
        keepAlive = HttpUtil.isKeepAlive(request);
        http10 = request.protocolVersion().minorVersion() == 0;
        method = request.method();
        uri = request.uri();
        headRequest = HttpMethod.HEAD.equals(method);
        upgrade = ProxyHeaders.isUpgrade(request);
        bodyless = !HttpUtil.isTransferEncodingChunked(request) && HttpUtil.getContentLength(request, 0L) == 0;
        int pinned = affinity != null ? affinity.pinnedIndex(request) : SessionAffinity.NONE;
        ProxyHeaders.prepareRequest(request, clientIp, upgrade);
        head = request;
        timer = client.eventLoop().schedule(timeoutTask, responseTimeoutNanos, TimeUnit.NANOSECONDS);
        NodeState target = choose(pinned);
        if (target == null) {
            fail(HttpResponseStatus.SERVICE_UNAVAILABLE, "no usable node in cluster " + cluster.name());
        } else {
            dispatch(target);
        }
    }

    private NodeState choose(int pinned) {
        if (affinity != null) {
            if (pinned >= 0) {
                NodeState pinnedNode = cluster.nodes().get(pinned);
                if (pinnedNode.usable()) {
                    server.affinityCounters().recordHit();
                    return pinnedNode;
                }
                server.affinityCounters().recordMiss();
            } else if (pinned == SessionAffinity.UNKNOWN) {
                server.affinityCounters().recordMiss();
            } else {
                server.affinityCounters().recordUnpinned();
            }
            insertCookie = true;
        }
        if (boundNode != null && boundBackend != null && boundBackend.isActive() && boundNode.usable()) {
            return boundNode;
        }
        return cluster.pick(null);
    }

    private void dispatch(NodeState target) {
        node = target;
        if (boundBackend != null) {
            if (boundNode == target && boundBackend.isActive()) {
                send(boundBackend, 0);
                return;
            }
            unbind(true);
        }
        waitingOn = pools.pool(target);
        acquireNanos = System.nanoTime();
        waitingOn.acquire(this);
        if (waitingOn != null) {
            pause(PAUSE_CONNECT);
        }
    }

    @Override
    public void onBackendReady(Channel channel) {
        BackendHandler handler = handler(channel);
        if (waitingOn == null || handler.pool() != waitingOn || !active) {
            handler.pool().release(channel); // a late connect for an exchange that ended
            return;
        }
        waitingOn = null;
        if (perConnection) {
            boundNode = node;
            boundBackend = channel;
            node.assignmentStarted();
        }
        send(channel, System.nanoTime() - acquireNanos);
        resume(PAUSE_CONNECT);
    }

    @Override
    public void onBackendFailed(Throwable cause) {
        NodePool pool = waitingOn;
        if (pool == null) {
            return;
        }
        waitingOn = null;
        NodeState failed = pool.node();
        failed.markConnectFailure(unhealthyRetryMs);
        cluster.refresh();
        log.warn("cluster {}: node {} unreachable ({}); out of selection for {} ms", cluster.name(), failed,
                cause.toString(), unhealthyRetryMs);
        if (!active) {
            return;
        }
        resume(PAUSE_CONNECT);
        if (++attempts >= connectAttempts) {
            fail(HttpResponseStatus.BAD_GATEWAY, "node " + failed.name() + " unreachable");
            return;
        }
        NodeState next = cluster.pick(failed);
        if (next == null || (next == failed && !failed.usable())) {
            fail(HttpResponseStatus.BAD_GATEWAY, "no node of cluster " + cluster.name() + " reachable");
        } else {
            dispatch(next);
        }
    }

    /** Sends the request head and whatever body arrived meanwhile to the node. */
    private void send(Channel channel, long waitNanos) {
        backend = channel;
        handler(channel).attach(this);
        cluster.counters().backendConnectionObtained(waitNanos);
        node.counters().backendConnectionObtained(waitNanos);
        node.counters().requestStarted();
        node.requestSent();
        if (!perConnection) {
            node.assignmentStarted();
        }
        channel.config().setAutoRead(client.isWritable());
        if (!channel.isWritable()) {
            pause(PAUSE_BACKPRESSURE);
        }
        sentNanos = System.nanoTime();
        HttpRequest request = head;
        head = null;
        headSent = true;
        channel.write(request, channel.voidPromise());
        flushBackend = true;
        drain();
        flushBackend();
    }

    /** A message from the node serving this exchange. */
    void onBackendMessage(Channel channel, Object msg) {
        if (channel != backend || !active) {
            ReferenceCountUtil.release(msg);
            if (!active) {
                channel.close(); // unsolicited bytes on an idle bound connection
            }
            return;
        }
        if (msg instanceof HttpResponse response) {
            onResponseHead(response);
        } else if (msg instanceof HttpContent content) {
            boolean last = content instanceof LastHttpContent;
            if (informational || responseStarted) {
                client.write(content, client.voidPromise());
            } else {
                content.release();
            }
            if (last && informational) {
                informational = false;
            } else if (last && responseStarted) {
                if (status == 101) {
                    endExchange(true);
                    if (channel == boundBackend) {
                        unbind(false);
                    }
                    closing = true;
                    releaseQueued();
                    client.flush();
                    TunnelRelay.install(client, channel, cluster.counters());
                } else {
                    complete();
                }
            }
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    private void onResponseHead(HttpResponse response) {
        int code = response.status().code();
        if (response.decoderResult().isFailure() || (code == 101 && !upgrade)) {
            ReferenceCountUtil.release(response);
            fail(HttpResponseStatus.BAD_GATEWAY, "invalid response from node " + node.name());
            return;
        }
        String report = response.headers().get(ProxyHeaders.LOAD_REPORT);
        if (report != null) {
            response.headers().remove(ProxyHeaders.LOAD_REPORT);
            server.loadReportSink().onLoadReport(node, report);
        }
        if (code < 200 && code != 101) {
            informational = true; // 100 Continue and friends: relay, the final response follows
            ProxyHeaders.stripHopByHop(response.headers(), false);
            client.write(response, client.voidPromise());
            return;
        }
        cancelTimer();
        responseStarted = true;
        status = code;
        backendKeepAlive = HttpUtil.isKeepAlive(response);
        if (!requestDone && !bodyless) {
            keepAlive = false; // answered before the body ended: the rest of it cannot be resynchronised
        }
        boolean noBody = headRequest || code == 204 || code == 304;
        keepAlive = ProxyHeaders.prepareResponse(response, keepAlive, http10, noBody);
        if (insertCookie) {
            response.headers().add(HttpHeaderNames.SET_COOKIE, affinity.setCookieFor(node));
        }
        client.write(response, client.voidPromise());
    }

    /** The response is complete: account, recycle the node connection, go on with the next request. */
    private void complete() {
        Channel channel = backend;
        boolean reusable = backendKeepAlive && requestDone;
        endExchange(true);
        if (perConnection) {
            if (!reusable) {
                unbind(false);
                channel.close();
            }
        } else {
            BackendHandler handler = handler(channel);
            handler.detach();
            if (reusable) {
                handler.pool().release(channel);
            } else {
                channel.close();
            }
        }
        if (keepAlive) {
            client.flush();
            drain();
        } else {
            closing = true;
            releaseQueued();
            client.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
    }

    /**
     * Ends the exchange in error: answers {@code error} when no response byte reached the client yet,
     * closes the client connection otherwise. {@code error == null}: the client is gone.
     */
    private void fail(HttpResponseStatus error, String reason) {
        if (!active) {
            return;
        }
        if (waitingOn != null) {
            waitingOn.cancel(this);
            waitingOn = null;
        }
        Channel channel = backend;
        boolean started = responseStarted;
        status = error == null ? 499 : error.code();
        endExchange(false);
        if (channel != null) {
            handler(channel).detach();
            channel.close();
            if (channel == boundBackend) {
                unbind(false);
            }
        }
        if (error == null) {
            return;
        }
        log.debug("client {} {} {}: {} {}", clientIp, method, uri, error.code(), reason);
        if (started || !client.isActive()) {
            closing = true;
            releaseQueued();
            client.close();
        } else if ((requestDone || bodyless) && keepAlive) {
            client.writeAndFlush(ErrorResponses.of(error, reason, false), client.voidPromise());
            drain();
        } else {
            closing = true;
            releaseQueued();
            client.writeAndFlush(ErrorResponses.of(error, reason, true)).addListener(ChannelFutureListener.CLOSE);
        }
    }

    /** Counters, node bookkeeping and access log of the exchange; exactly once per exchange. */
    private void endExchange(boolean success) {
        active = false;
        cancelTimer();
        long now = System.nanoTime();
        long latency = now - startNanos;
        if (success) {
            long processing = now - sentNanos;
            cluster.counters().requestCompleted(latency, processing);
            node.counters().requestCompleted(latency, processing);
            node.requestEnded(processing);
        } else {
            cluster.counters().requestFailed();
            if (headSent) {
                node.counters().requestFailed();
                node.requestEnded(-1);
            }
        }
        if (headSent && !perConnection) {
            node.assignmentEnded();
        }
        if (accessLog.isDebugEnabled()) {
            accessLog.debug("{} {} {} {} {} {}ms", clientIp, method, uri, headSent ? node.name() : "-",
                    status, latency / 1_000_000);
        }
        head = null;
        backend = null;
        headSent = false;
        resume(PAUSE_CONNECT | PAUSE_BACKPRESSURE | PAUSE_UPGRADE);
    }

    /** Per-connection mode: forget the bound node, returning its idle connection to the pool if asked. */
    private void unbind(boolean returnToPool) {
        if (boundNode != null) {
            boundNode.assignmentEnded();
            boundNode = null;
        }
        Channel channel = boundBackend;
        boundBackend = null;
        if (channel != null && channel != backend) {
            BackendHandler handler = handler(channel);
            handler.detach();
            if (returnToPool) {
                handler.pool().release(channel);
            }
        }
    }

    void onBackendClosed(Channel channel) {
        if (channel == backend && active) {
            fail(HttpResponseStatus.BAD_GATEWAY, "node " + node.name() + " closed the connection");
        } else if (channel == boundBackend) {
            unbind(false);
        }
    }

    void onBackendWritabilityChanged(boolean writable) {
        if (writable) {
            resume(PAUSE_BACKPRESSURE);
        } else {
            pause(PAUSE_BACKPRESSURE);
        }
    }

    void flushClient() {
        client.flush();
    }

    private void flushBackend() {
        if (flushBackend && backend != null) {
            flushBackend = false;
            backend.flush();
        }
    }

    private void onResponseTimeout() {
        timer = null;
        if (!active || responseStarted) {
            return;
        }
        long now = System.nanoTime();
        if (!requestDone && uploadChunks != uploadChunksSeen) {
            uploadChunksSeen = uploadChunks; // the upload is still moving; the node's time starts at its end
            timer = client.eventLoop().schedule(timeoutTask, responseTimeoutNanos, TimeUnit.NANOSECONDS);
        } else if (requestDone && now - requestDoneNanos < responseTimeoutNanos) {
            timer = client.eventLoop().schedule(timeoutTask, responseTimeoutNanos - (now - requestDoneNanos),
                    TimeUnit.NANOSECONDS);
        } else {
            fail(HttpResponseStatus.GATEWAY_TIMEOUT, (node != null ? "node " + node.name() : "cluster " + cluster.name())
                    + " did not answer within " + cluster.config().responseTimeoutMsOrDefault() + " ms");
        }
    }

    private void cancelTimer() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    private void pause(int reason) {
        int before = paused;
        paused |= reason;
        if (before == 0) {
            client.config().setAutoRead(false);
        }
    }

    private void resume(int reasons) {
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

    private static BackendHandler handler(Channel channel) {
        return (BackendHandler) channel.pipeline().get(BackendHandler.NAME);
    }
}
