package io.loadwise.dispatcher.http;

import static io.loadwise.dispatcher.http.FrontendHandler.PAUSE_BACKPRESSURE;
import static io.loadwise.dispatcher.http.FrontendHandler.PAUSE_CONNECT;
import static io.loadwise.dispatcher.http.FrontendHandler.PAUSE_UPGRADE;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.Affinity;
import io.loadwise.dispatcher.config.Balance;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.http.codec.BadMessage;
import io.loadwise.dispatcher.http.codec.NodeCodec;
import io.loadwise.dispatcher.http.codec.ProxiedRequest;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request at a time of one client connection, from its head to the end of its response: chooses
 * the node, obtains a connection to it (retrying another node when a connect fails), relays both
 * bodies, and answers with an error when it cannot complete. One instance per client connection,
 * reused for every request, used only on that connection's event loop.
 *
 * <p>Every counter started here ends exactly once: {@link #complete()} and {@link #fail} both go
 * through {@link #end}, guarded by {@link #active}.
 *
 * <p>Deadlines ({@link #checkDeadlines}) are checked by the connection's one timer, not per request:
 * progress is counted on the hot path (a counter increment) and turned into time only when the timer
 * fires, so a stalled peer is caught between one and two timeouts after its last byte.
 */
final class Exchange implements NodePool.Waiter {

    private static final Logger log = LoggerFactory.getLogger(Exchange.class);

    private final HttpProxyServer server;
    private final FrontendHandler frontend;
    private final VirtualCluster cluster;
    private final SessionAffinity affinity;
    private final boolean perConnection;
    private final long responseTimeoutNanos;
    private final long requestIdleNanos;
    private final long responseIdleNanos;
    /** 0: no limit on a whole exchange. */
    private final long exchangeTimeoutNanos;
    /** The soonest any deadline of a new exchange can fall, after its start. */
    private final long firstDeadlineNanos;
    private final int connectAttempts;
    private final int unhealthyRetryMs;

    private Channel client;
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
    private boolean flushBackend;
    private ProxiedRequest head;
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
    private long uploadSeenNanos;
    private long responseProgress;
    private long responseProgressSeen;
    private long responseSeenNanos;

    Exchange(HttpProxyServer server, FrontendHandler frontend) {
        this.server = server;
        this.frontend = frontend;
        this.cluster = server.cluster();
        ClusterConfig config = cluster.config();
        this.affinity = config.affinityOrDefault() == Affinity.COOKIE ? server.sessionAffinity() : null;
        this.perConnection = config.balanceOrDefault() == Balance.PER_CONNECTION;
        this.responseTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(config.responseTimeoutMsOrDefault());
        this.requestIdleNanos = TimeUnit.MILLISECONDS.toNanos(config.requestIdleTimeoutMsOrDefault());
        this.responseIdleNanos = TimeUnit.MILLISECONDS.toNanos(config.responseIdleTimeoutMsOrDefault());
        this.exchangeTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(config.exchangeTimeoutMsOrDefault());
        long first = Math.min(responseTimeoutNanos, Math.min(requestIdleNanos, responseIdleNanos));
        this.firstDeadlineNanos = exchangeTimeoutNanos > 0 ? Math.min(first, exchangeTimeoutNanos) : first;
        this.connectAttempts = config.connectAttemptsOrDefault();
        this.unhealthyRetryMs = config.unhealthyRetryMsOrDefault();
    }

    boolean active() {
        return active;
    }

    Channel backend() {
        return backend;
    }

    /** Whether {@code msg} can be handled now rather than queued until this exchange ends. */
    boolean accepts(Object msg) {
        return !active || (headSent && !requestDone && !(msg instanceof HttpRequest));
    }

    void begin(ProxiedRequest request) {
        client = frontend.client();
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
        responseProgress = 0;
        responseProgressSeen = 0;
        startNanos = System.nanoTime();
        uploadSeenNanos = startNanos;
        cluster.counters().requestStarted();
        keepAlive = HttpUtil.isKeepAlive(request);
        http10 = request.protocolVersion().minorVersion() == 0;
        method = request.method();
        uri = request.uri();
        headRequest = HttpMethod.HEAD.equals(method);
        upgrade = request.upgrade();
        bodyless = request.bodyless();
        int pinned = affinity != null ? affinity.pinnedIndex(request) : SessionAffinity.NONE;
        ProxyHeaders.prepareRequest(request, frontend.clientIp(), frontend.trustedSource(), upgrade);
        head = request;
        frontend.deadlineBy(startNanos + firstDeadlineNanos);
        NodeState target = choose(pinned);
        if (target == null) {
            fail(HttpResponseStatus.SERVICE_UNAVAILABLE, "no usable node in cluster " + cluster.name());
        } else {
            dispatch(target);
        }
    }

    /** Live affinity first, then the node this client is bound to, then the policy. */
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
        NodeState bound = frontend.boundNode();
        Channel boundBackend = frontend.boundBackend();
        if (bound != null && boundBackend != null && boundBackend.isActive() && bound.usable()) {
            return bound;
        }
        return cluster.pick(null);
    }

    private void dispatch(NodeState target) {
        node = target;
        Channel boundBackend = frontend.boundBackend();
        if (boundBackend != null) {
            if (frontend.boundNode() == target && boundBackend.isActive()) {
                send(boundBackend, 0);
                return;
            }
            frontend.unbind(true);
        }
        waitingOn = frontend.pools().pool(target);
        acquireNanos = System.nanoTime();
        waitingOn.acquire(this);
        if (waitingOn != null) {
            frontend.pause(PAUSE_CONNECT);
        }
    }

    @Override
    public void onBackendReady(Channel channel) {
        BackendHandler handler = BackendHandler.of(channel);
        if (waitingOn == null || handler.pool() != waitingOn || !active) {
            handler.pool().release(channel); // a late connect for an exchange that ended
            return;
        }
        waitingOn = null;
        if (perConnection) {
            frontend.bind(node, channel);
        }
        send(channel, System.nanoTime() - acquireNanos);
        frontend.resume(PAUSE_CONNECT);
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
        cluster.requestRefresh(); // never rebuilt on an event loop
        log.warn("cluster {}: node {} unreachable ({}); out of selection for {} ms", cluster.name(), failed,
                cause.toString(), unhealthyRetryMs);
        if (!active) {
            return;
        }
        frontend.resume(PAUSE_CONNECT);
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
        BackendHandler.of(channel).attach(this);
        cluster.counters().backendConnectionObtained(waitNanos);
        node.counters().backendConnectionObtained(waitNanos);
        node.counters().requestStarted();
        node.requestSent();
        if (!perConnection) {
            node.assignmentStarted();
        }
        channel.config().setAutoRead(client.isWritable());
        if (!channel.isWritable()) {
            frontend.pause(PAUSE_BACKPRESSURE);
        }
        sentNanos = System.nanoTime();
        BackendHandler.of(channel).codec().expectResponseTo(headRequest);
        HttpRequest request = head;
        head = null;
        headSent = true;
        channel.write(request, channel.voidPromise());
        flushBackend = true;
        frontend.drain();
        if (!frontend.reading()) {
            flushBackend(); // otherwise at the end of the client's read batch
        }
    }

    /** A piece of the request body (the last one ends the request). */
    void onRequestContent(HttpContent content) {
        if (!active || requestDone) {
            content.release();
        } else if (content.decoderResult().isFailure()) {
            Throwable cause = content.decoderResult().cause();
            content.release();
            keepAlive = false; // the body's end is unknown: nothing after it can be read
            fail(HttpResponseStatus.BAD_REQUEST, cause instanceof BadMessage bad ? bad.reason() : "malformed request body");
        } else {
            uploadChunks++;
            if (content instanceof LastHttpContent last) {
                ProxyHeaders.stripTrailers(last.trailingHeaders());
                requestDone = true;
                requestDoneNanos = System.nanoTime();
                if (upgrade) {
                    frontend.pause(PAUSE_UPGRADE); // what follows belongs to the new protocol
                }
            }
            backend.write(content, backend.voidPromise());
            flushBackend = true;
        }
    }

    /** A message from a node connection attached to this exchange. */
    void onBackendMessage(Channel channel, Object msg) {
        if (channel != backend || !active) {
            ReferenceCountUtil.release(msg);
            channel.close(); // unsolicited bytes on an idle bound connection
            return;
        }
        responseProgress++;
        if (msg instanceof HttpResponse response) {
            onResponseHead(response);
        } else if (msg instanceof HttpContent content) {
            boolean last = content instanceof LastHttpContent;
            if (content.decoderResult().isFailure()) {
                content.release();
                fail(HttpResponseStatus.BAD_GATEWAY, "invalid response body from node " + node.name());
                return;
            }
            if (last && responseStarted) {
                HttpHeaders trailers = ((LastHttpContent) content).trailingHeaders();
                String report = trailers.get(ProxyHeaders.LOAD_REPORT);
                if (report != null) {
                    server.loadReportSink().onLoadReport(node, report);
                }
                ProxyHeaders.stripTrailers(trailers);
            }
            if (informational || responseStarted) {
                client.write(content, client.voidPromise());
            } else {
                content.release();
            }
            if (last && informational) {
                informational = false;
            } else if (last && responseStarted) {
                if (status == 101) {
                    switchProtocols(channel);
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
        responseStarted = true;
        responseSeenNanos = System.nanoTime();
        status = code;
        backendKeepAlive = HttpUtil.isKeepAlive(response);
        if (upgrade && code != 101) {
            keepAlive = false; // the client may already be sending the new protocol: it cannot be read as HTTP
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
        if (!requestDone) {
            keepAlive = false; // the node answered before the body ended: the rest cannot be resynchronised
        }
        end(true);
        if (perConnection) {
            if (!reusable) {
                frontend.unbind(false);
                channel.close();
            }
        } else {
            BackendHandler handler = BackendHandler.of(channel);
            handler.detach();
            if (reusable) {
                handler.releaseAfterRead(); // once the node's read batch shows nothing follows the response
            } else {
                channel.close();
            }
        }
        if (keepAlive) {
            client.flush();
            frontend.drain();
        } else {
            frontend.closeAfterResponse();
        }
    }

    /** 101 relayed: both connections become a raw byte tunnel. */
    private void switchProtocols(Channel channel) {
        end(true);
        if (channel == frontend.boundBackend()) {
            frontend.unbind(false);
        }
        frontend.handOver();
        client.flush();
        TunnelRelay.install(client, channel, cluster.counters());
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
        end(false);
        if (channel != null) {
            BackendHandler.of(channel).detach();
            channel.close();
            if (channel == frontend.boundBackend()) {
                frontend.unbind(false);
            }
        }
        if (error == null) {
            return;
        }
        log.debug("client {} {} {}: {} {}", frontend.clientIp(), method, uri, error.code(), reason);
        if (started || !client.isActive()) {
            frontend.abort();
        } else if ((requestDone || bodyless) && keepAlive) {
            frontend.respondAndContinue(ErrorResponses.of(error, reason, false));
        } else {
            frontend.closeAfter(ErrorResponses.of(error, reason, true));
        }
    }

    void onClientClosed() {
        fail(null, "client closed the connection");
    }

    /** Counters, node bookkeeping and access log of the exchange; exactly once per exchange. */
    private void end(boolean success) {
        active = false;
        long now = System.nanoTime();
        frontend.touch(now);
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
        logAccess(frontend.clientIp(), method, uri, headSent ? node : null, status, latency);
        head = null;
        backend = null;
        headSent = false;
        frontend.resume(PAUSE_CONNECT | PAUSE_BACKPRESSURE | PAUSE_UPGRADE);
    }

    static void logAccess(String clientIp, HttpMethod method, String uri, NodeState node, int status, long nanos) {
        // The same logger, level and line as TCP tunnels; the body size is not tracked here yet ("-").
        if (io.loadwise.dispatcher.logging.AccessLog.enabled()) {
            io.loadwise.dispatcher.logging.AccessLog.http(clientIp, method == null ? null : method.name(), uri, status,
                    node == null ? null : node.name(), -1, nanos / 1_000_000);
        }
    }

    void onBackendClosed(Channel channel) {
        if (channel == backend && active) {
            fail(HttpResponseStatus.BAD_GATEWAY, "node " + node.name() + " closed the connection");
        } else if (channel == frontend.boundBackend()) {
            frontend.unbind(false);
        }
    }

    void onBackendWritabilityChanged(boolean writable) {
        if (writable) {
            frontend.resume(PAUSE_BACKPRESSURE);
        } else {
            frontend.pause(PAUSE_BACKPRESSURE);
        }
    }

    void onClientWritabilityChanged(boolean writable) {
        if (writable) {
            responseProgress++; // the client reads again
        }
        if (backend != null) {
            backend.config().setAutoRead(writable);
        }
    }

    void flushClient() {
        client.flush();
    }

    void flushBackend() {
        if (flushBackend && backend != null) {
            flushBackend = false;
            backend.flush();
        }
    }

    /**
     * Checks this exchange's deadlines at {@code now}, ending it when one has passed, and returns when
     * the next one falls ({@link Long#MAX_VALUE} when the exchange is over). Progress counted since the
     * last check moves the idle deadlines forward.
     */
    long checkDeadlines(long now) {
        if (!active) {
            return Long.MAX_VALUE;
        }
        long next = Long.MAX_VALUE;
        if (exchangeTimeoutNanos > 0) {
            long due = startNanos + exchangeTimeoutNanos;
            if (now - due >= 0) {
                timeOut(responseStarted ? HttpResponseStatus.GATEWAY_TIMEOUT : HttpResponseStatus.REQUEST_TIMEOUT,
                        "exchange not complete within " + cluster.config().exchangeTimeoutMsOrDefault() + " ms");
                return Long.MAX_VALUE;
            }
            next = due;
        }
        if (!headSent) {
            long due = startNanos + responseTimeoutNanos;
            if (now - due >= 0) {
                timeOut(HttpResponseStatus.GATEWAY_TIMEOUT, (node != null ? "node " + node.name() : "cluster "
                        + cluster.name()) + ": no connection within " + cluster.config().responseTimeoutMsOrDefault() + " ms");
                return Long.MAX_VALUE;
            }
            next = Math.min(next, due);
        } else if (!requestDone) {
            if (uploadChunks != uploadChunksSeen) {
                uploadChunksSeen = uploadChunks;
                uploadSeenNanos = now;
            }
            long due = uploadSeenNanos + requestIdleNanos;
            if (now - due >= 0) {
                timeOut(HttpResponseStatus.REQUEST_TIMEOUT, "request body stalled for "
                        + cluster.config().requestIdleTimeoutMsOrDefault() + " ms");
                return Long.MAX_VALUE;
            }
            next = Math.min(next, due);
        }
        if (responseStarted) {
            if (responseProgress != responseProgressSeen) {
                responseProgressSeen = responseProgress;
                responseSeenNanos = now;
            }
            long due = responseSeenNanos + responseIdleNanos;
            if (now - due >= 0) {
                timeOut(HttpResponseStatus.GATEWAY_TIMEOUT, "response from node " + node.name() + " stalled for "
                        + cluster.config().responseIdleTimeoutMsOrDefault() + " ms");
                return Long.MAX_VALUE;
            }
            next = Math.min(next, due);
        } else if (requestDone) {
            long due = requestDoneNanos + responseTimeoutNanos;
            if (now - due >= 0) {
                timeOut(HttpResponseStatus.GATEWAY_TIMEOUT, "node " + node.name() + " did not answer within "
                        + cluster.config().responseTimeoutMsOrDefault() + " ms");
                return Long.MAX_VALUE;
            }
            next = Math.min(next, due);
        }
        return next;
    }

    private void timeOut(HttpResponseStatus status, String reason) {
        log.info("cluster {}: client {} {} {}: {}", cluster.name(), frontend.clientIp(), method, uri, reason);
        keepAlive = false;
        fail(status, reason);
    }
}
