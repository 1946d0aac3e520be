package io.loadwise.dispatcher.http;

import static io.loadwise.dispatcher.http.ClientConnection.PAUSE_BACKPRESSURE;
import static io.loadwise.dispatcher.http.ClientConnection.PAUSE_CONNECT;
import static io.loadwise.dispatcher.http.ClientConnection.PAUSE_UPGRADE;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.RequestQueue;
import io.loadwise.dispatcher.cluster.RetryBudget;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.Affinity;
import io.loadwise.dispatcher.config.Balance;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.RetryOn;
import io.loadwise.dispatcher.http.codec.BadMessage;
import io.loadwise.dispatcher.http.codec.ProxiedRequest;
import io.loadwise.dispatcher.logging.AccessLog;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Ticker;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request at a time of one client connection, from its head to the end of its response: chooses
 * the node, obtains a connection to it (retrying another node when a connect fails), relays both
 * bodies, and answers with an error when it cannot complete. One instance per client connection,
 * reused for every request, used only on that connection's event loop.
 *
 * <p>Its state is two small machines that run side by side, because a node may answer before the
 * request body has ended:
 * <pre>
 *   request:  IDLE → (QUEUED →) CONNECTING → SENDING → SENT → IDLE
 *   response: NONE → (INFORMATIONAL → NONE)* → STREAMING → NONE
 * </pre>
 * A request that finds no node free waits QUEUED in the cluster's {@link RequestQueue}; one whose node
 * fails before any response byte may go back to CONNECTING once, to another node ({@link Replay},
 * {@link RetryBudget}).
 * {@link #begin} leaves IDLE; {@link #complete} and {@link #fail} both return to IDLE through
 * {@link #end}, exactly once, so every counter started is ended once.
 *
 * <p>Deadlines ({@link #checkDeadlines}) are checked by the connection's one timer, not per request:
 * progress is counted on the hot path (a counter increment) and turned into time only when the timer
 * fires, so a stalled peer is caught between one and two timeouts after its last byte.
 */
final class Exchange implements NodePool.Waiter, RequestQueue.Waiter {

    /** Where the request is. */
    enum RequestPhase {
        /** No exchange: between requests. */
        IDLE,
        /** Every node is full (or none reachable): waiting in the cluster's queue for a free one. */
        QUEUED,
        /** A node is chosen; waiting for a connection to it. Nothing sent yet, so a failure may retry. */
        CONNECTING,
        /** The head went to the node; body pieces follow as they arrive. */
        SENDING,
        /** The whole request went to the node. */
        SENT
    }

    /** Where the node's response is. */
    enum ResponsePhase {
        NONE,
        /** A 1xx is being relayed; the final response follows. */
        INFORMATIONAL,
        /** The final response head went to the client; its body is being relayed. */
        STREAMING
    }

    private static final Logger log = LoggerFactory.getLogger(Exchange.class);

    private final HttpProxyServer server;
    private final ClientConnection frontend;
    private final VirtualCluster cluster;
    private final SessionAffinity affinity;
    /** {@code balance: per-connection}: the node this client is bound to; {@code null} per request. */
    private final NodeBinding binding;
    private final long responseTimeoutNanos;
    private final long requestIdleNanos;
    private final long responseIdleNanos;
    /** 0: no limit on a whole exchange. */
    private final long exchangeTimeoutNanos;
    /** The soonest any deadline of a new exchange can fall, after its start. */
    private final long firstDeadlineNanos;
    private final int connectAttempts;
    private final int unhealthyRetryMs;
    /** Which failures send the request to another node (the cluster's {@code retryOn}). */
    private final RetryOn retryOn;
    private final RequestQueue queue;
    private final Runnable onWake = this::onSlotFree;

    private Channel client;
    private Ticker ticker;
    private RequestPhase request = RequestPhase.IDLE;
    private ResponsePhase response = ResponsePhase.NONE;
    /** The request being served; its framing, method and version stay readable after its head is sent. */
    private ProxiedRequest head;
    /** The client connection stays open after this exchange. */
    private boolean keepAlive;
    /** The node connection may serve another request after this exchange. */
    private boolean nodeKeepAlive;
    /** The response gets the affinity cookie (no live route pinned the request). */
    private boolean insertCookie;
    /** Something was written to the node since its last flush. */
    private boolean flushPending;
    private NodeState node;
    private Channel backend;
    private NodePool waitingOn;
    /** The node whose {@code maxConnections} slot this exchange holds, or {@code null}. */
    private NodeState admitted;
    /** The affinity route of the request ({@link SessionAffinity#NONE} without affinity), kept for a queued pick. */
    private int pinned;
    /** The request went to a second node already; it is never sent a third time. */
    private boolean retried;
    /** This exchange holds one retry of the cluster's budget. */
    private boolean holdsRetry;
    /** The next node connection gets the empty last piece after the head: a bodyless request sent again. */
    private boolean replayLast;
    /** Something of a response (a 1xx too) came from the node: the request is not sent again. */
    private boolean responseBytes;
    /** The error response gets {@code Retry-After}: the cluster is full, not broken. */
    private boolean retryAfter;
    private int attempts;
    private int status;
    private long startNanos;
    /** When the request entered the queue. */
    private long queuedNanos;
    /** When waiting for a connection began: the exchange's start, or the end of its wait in the queue, or a retry. */
    private long connectingSinceNanos;
    private long acquireNanos;
    private long sentNanos;
    private long requestDoneNanos;
    private long uploadProgress;
    private long uploadProgressSeen;
    private long uploadSeenNanos;
    private long responseProgress;
    private long responseProgressSeen;
    private long responseSeenNanos;

    Exchange(HttpProxyServer server, ClientConnection frontend) {
        this.server = server;
        this.frontend = frontend;
        this.cluster = server.cluster();
        ClusterConfig config = cluster.config();
        this.affinity = config.affinityOrDefault() == Affinity.COOKIE ? server.sessionAffinity() : null;
        this.binding = config.balanceOrDefault() == Balance.PER_CONNECTION ? new NodeBinding() : null;
        this.responseTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(config.responseTimeoutMsOrDefault());
        this.requestIdleNanos = TimeUnit.MILLISECONDS.toNanos(config.requestIdleTimeoutMsOrDefault());
        this.responseIdleNanos = TimeUnit.MILLISECONDS.toNanos(config.responseIdleTimeoutMsOrDefault());
        this.exchangeTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(config.exchangeTimeoutMsOrDefault());
        long first = Math.min(responseTimeoutNanos, Math.min(requestIdleNanos, responseIdleNanos));
        this.firstDeadlineNanos = exchangeTimeoutNanos > 0 ? Math.min(first, exchangeTimeoutNanos) : first;
        this.connectAttempts = config.connectAttemptsOrDefault();
        this.unhealthyRetryMs = config.unhealthyRetryMsOrDefault();
        this.retryOn = config.retryOnOrDefault();
        this.queue = cluster.queue();
    }

    boolean active() {
        return request != RequestPhase.IDLE;
    }

    RequestPhase requestPhase() {
        return request;
    }

    ResponsePhase responsePhase() {
        return response;
    }

    /** Whether {@code msg} can be handled now rather than queued until this exchange ends. */
    boolean accepts(Object msg) {
        return request == RequestPhase.IDLE || (request == RequestPhase.SENDING && !(msg instanceof HttpRequest));
    }

    // ---- IDLE → CONNECTING ------------------------------------------------------------------------

    void begin(ProxiedRequest proxied) {
        client = frontend.channel();
        ticker = client.eventLoop().ticker();
        request = RequestPhase.CONNECTING;
        response = ResponsePhase.NONE;
        insertCookie = false;
        retried = false;
        replayLast = false;
        responseBytes = false;
        retryAfter = false;
        attempts = 0;
        status = 0;
        uploadProgress = 0;
        uploadProgressSeen = 0;
        responseProgress = 0;
        responseProgressSeen = 0;
        startNanos = ticker.nanoTime();
        uploadSeenNanos = startNanos;
        cluster.counters().requestStarted();
        keepAlive = HttpUtil.isKeepAlive(proxied);
        int pinned = affinity != null ? affinity.pinnedIndex(proxied) : SessionAffinity.NONE;
        ProxyHeaders.prepareRequest(proxied, frontend.forwarding(), frontend.trustedSource(), proxied.upgrade());
        head = proxied;
        this.pinned = pinned;
        connectingSinceNanos = startNanos;
        frontend.deadlineBy(startNanos + firstDeadlineNanos);
        // Others wait already: behind them. Not across contexts: the queue is the cluster's, and a request
        // for one context must not wait behind another's whose nodes are full while its own have room.
        boolean behindOthers = queue.busy() && !cluster.routesByContext();
        NodeState target = behindOthers ? null : admit(choose(pinned));
        if (target == null && !cluster.servesTarget(proxied.uri())) {
            fail(HttpResponseStatus.NOT_FOUND, "no node of cluster " + cluster.name() + " serves the path");
        } else if (target == null) {
            waitForNode();
        } else {
            dispatch(target);
        }
    }

    // ---- admission and the queue: IDLE → QUEUED → CONNECTING --------------------------------------

    /** Takes one of {@code chosen}'s {@code maxConnections} slots; {@code null} when it is full (or null). */
    private NodeState admit(NodeState chosen) {
        if (chosen == null || !chosen.tryAdmit()) {
            return null;
        }
        admitted = chosen;
        return chosen;
    }

    /** Gives the slot back, and the head of the cluster's queue its turn. */
    private void releaseSlot() {
        NodeState holder = admitted;
        if (holder != null) {
            admitted = null;
            if (holder.leave()) {
                queue.slotFreed();
            }
        }
    }

    /** No node takes the request now: it waits in the cluster's queue, or gets 503 at once. */
    private void waitForNode() {
        if (queue.offer(this)) {
            request = RequestPhase.QUEUED;
            queuedNanos = ticker.nanoTime();
            frontend.pause(PAUSE_CONNECT);
            frontend.deadlineBy(queuedNanos + queue.timeoutNanos());
            if (!queue.wakePending() && anyNodeFree()) {
                queue.slotFreed(); // a slot came free between the pick and the offer: nobody would wake us
            }
            return;
        }
        if (queue.enabled()) {
            retryAfter = true;
            fail(HttpResponseStatus.SERVICE_UNAVAILABLE, "the queue of cluster " + cluster.name() + " is full ("
                    + cluster.config().maxQueueOrDefault() + " requests)");
        } else if (anyNodeFull()) {
            retryAfter = true;
            fail(HttpResponseStatus.SERVICE_UNAVAILABLE, "every usable node of cluster " + cluster.name()
                    + " is at its maxConnections");
        } else {
            fail(HttpResponseStatus.SERVICE_UNAVAILABLE, "no usable node in cluster " + cluster.name());
        }
    }

    private boolean anyNodeFree() {
        for (NodeState n : cluster.nodes()) {
            if (n.selectable()) {
                return true;
            }
        }
        return false;
    }

    private boolean anyNodeFull() {
        for (NodeState n : cluster.nodes()) {
            if (n.usable() && !n.admitted()) {
                return true;
            }
        }
        return false;
    }

    /** A slot came free: called on any thread, picks again on this exchange's loop. */
    @Override
    public void wake() {
        client.eventLoop().execute(onWake);
    }

    private void onSlotFree() {
        queue.awake();
        if (request != RequestPhase.QUEUED) {
            queue.slotFreed(); // this exchange ended meanwhile: the slot is the next one's
            return;
        }
        NodeState target = admit(choose(pinned));
        if (target == null) {
            queue.requeue(this); // another took it first: first in line again
            return;
        }
        long now = ticker.nanoTime();
        queue.left(this, now - queuedNanos);
        if (queue.busy() && !queue.wakePending() && anyNodeFree()) {
            queue.slotFreed(); // more than one slot came free: the next in line need not wait for another
        }
        request = RequestPhase.CONNECTING;
        connectingSinceNanos = now;
        frontend.resume(PAUSE_CONNECT);
        dispatch(target);
    }

    /** Live affinity first, then the node this client is bound to, then the policy. */
    private NodeState choose(int pinned) {
        if (affinity != null) {
            if (pinned >= 0) {
                NodeState pinnedNode = cluster.nodes().get(pinned);
                // A pin holds on a usable node, and on one in service in a group on standby (PriorityGroups); a
                // full node is passed over.
                if (pinnedNode.keepsPinnedWork() && pinnedNode.admitted() && cluster.serves(pinnedNode, head.uri())) {
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
        NodeState bound = binding != null ? binding.usableNode() : null;
        return bound != null ? bound : cluster.pick(null, head.uri());
    }

    private void dispatch(NodeState target) {
        node = target;
        if (binding != null && binding.bound()) {
            Channel bound = binding.channelFor(target);
            if (bound != null) {
                send(bound, 0);
                return;
            }
            binding.release(true, null);
        }
        waitingOn = frontend.pools().pool(target);
        acquireNanos = ticker.nanoTime();
        waitingOn.acquire(this);
        if (waitingOn != null) {
            frontend.pause(PAUSE_CONNECT);
        }
    }

    @Override
    public void onBackendReady(Channel channel) {
        BackendHandler handler = BackendHandler.of(channel);
        if (waitingOn == null || handler.pool() != waitingOn || request != RequestPhase.CONNECTING) {
            handler.pool().release(channel); // a late connect for an exchange that ended
            return;
        }
        waitingOn = null;
        if (binding != null) {
            binding.bind(node, channel);
        }
        send(channel, ticker.nanoTime() - acquireNanos);
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
        cluster.outcomes().onGatewayFailure(failed); // outlier detection (issue 15)
        cluster.requestRefresh(); // never rebuilt on an event loop
        log.warn("cluster {}: node {} unreachable ({}); out of selection for {} ms", cluster.name(), failed,
                cause.toString(), unhealthyRetryMs);
        if (request != RequestPhase.CONNECTING) {
            return;
        }
        frontend.resume(PAUSE_CONNECT);
        releaseSlot();
        if (!retryOn.connectFailure() || ++attempts >= connectAttempts) {
            fail(HttpResponseStatus.BAD_GATEWAY, "node " + failed.name() + " unreachable");
            return;
        }
        NodeState next = cluster.pick(failed, head.uri());
        if (next == null || (next == failed && !failed.usable())) {
            next = null;
        }
        NodeState target = admit(next);
        if (target != null) {
            dispatch(target);
        } else if (queue.enabled()) {
            waitForNode(); // refused or full everywhere: wait for a node like a request that found none
        } else {
            fail(HttpResponseStatus.BAD_GATEWAY, "no node of cluster " + cluster.name() + " reachable");
        }
    }

    // ---- CONNECTING → SENDING → SENT --------------------------------------------------------------

    /** Sends the request head and whatever body arrived meanwhile to the node. */
    private void send(Channel channel, long waitNanos) {
        backend = channel;
        BackendHandler handler = BackendHandler.of(channel);
        handler.attach(this);
        cluster.counters().backendConnectionObtained(waitNanos);
        node.counters().backendConnectionObtained(waitNanos);
        node.counters().requestStarted();
        node.requestSent();
        if (binding == null) {
            node.assignmentStarted();
        }
        channel.config().setAutoRead(client.isWritable());
        if (!channel.isWritable()) {
            frontend.pause(PAUSE_BACKPRESSURE);
        }
        sentNanos = ticker.nanoTime();
        handler.codec().expectResponseTo(HttpMethod.HEAD.equals(head.method()));
        request = RequestPhase.SENDING;
        channel.write(head, channel.voidPromise());
        if (replayLast) { // a bodyless request sent again: its (empty) end went to the first node already
            replayLast = false;
            channel.write(LastHttpContent.EMPTY_LAST_CONTENT, channel.voidPromise());
            request = RequestPhase.SENT;
            requestDoneNanos = sentNanos;
        }
        flushPending = true;
        frontend.drain();
        if (!frontend.reading()) {
            flushBackend(); // otherwise at the end of the client's read batch
        }
    }

    /** A piece of the request body (the last one ends the request). */
    void onRequestContent(HttpContent content) {
        if (request != RequestPhase.SENDING) {
            content.release();
        } else if (content.decoderResult().isFailure()) {
            Throwable cause = content.decoderResult().cause();
            content.release();
            keepAlive = false; // the body's end is unknown: nothing after it can be read
            fail(HttpResponseStatus.BAD_REQUEST, cause instanceof BadMessage bad ? bad.reason() : "malformed request body");
        } else {
            uploadProgress++;
            if (content instanceof LastHttpContent last) {
                ProxyHeaders.stripTrailers(last.trailingHeaders());
                request = RequestPhase.SENT;
                requestDoneNanos = ticker.nanoTime();
                if (head.upgrade()) {
                    frontend.pause(PAUSE_UPGRADE); // what follows belongs to the new protocol
                }
            }
            backend.write(content, backend.voidPromise());
            flushPending = true;
        }
    }

    // ---- the response: NONE → INFORMATIONAL* → STREAMING → NONE -----------------------------------

    /** A message from a node connection attached to this exchange. */
    void onBackendMessage(Channel channel, Object msg) {
        if (channel != backend || !active()) {
            ReferenceCountUtil.release(msg);
            channel.close(); // unsolicited bytes on an idle bound connection
            return;
        }
        responseProgress++;
        responseBytes = true;
        if (msg instanceof HttpResponse head) {
            onResponseHead(head);
        } else if (msg instanceof HttpContent content) {
            onResponseContent(channel, content);
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    private void onResponseHead(HttpResponse nodeResponse) {
        int code = nodeResponse.status().code();
        if (nodeResponse.decoderResult().isFailure() || (code == 101 && !head.upgrade())) {
            Throwable cause = nodeResponse.decoderResult().cause();
            ReferenceCountUtil.release(nodeResponse);
            fail(HttpResponseStatus.BAD_GATEWAY, cause instanceof BadMessage bad ? bad.reason()
                    : "invalid response from node " + node.name());
            return;
        }
        String report = nodeResponse.headers().get(ProxyHeaders.LOAD_REPORT);
        if (report != null) {
            nodeResponse.headers().remove(ProxyHeaders.LOAD_REPORT);
            server.loadReportSink().onLoadReport(node, report);
        }
        if (code < 200 && code != 101) {
            response = ResponsePhase.INFORMATIONAL; // 100 Continue and friends: relay, the final one follows
            ProxyHeaders.stripHopByHop(nodeResponse.headers(), false);
            client.write(nodeResponse, client.voidPromise());
            return;
        }
        response = ResponsePhase.STREAMING;
        responseSeenNanos = ticker.nanoTime();
        status = code;
        cluster.answered(node, head.uri(), code, responseSeenNanos); // what policies and outlier detection count
        nodeKeepAlive = HttpUtil.isKeepAlive(nodeResponse);
        if (head.upgrade() && code != 101) {
            keepAlive = false; // the client may already be sending the new protocol: it cannot be read as HTTP
        }
        boolean http10 = head.clientVersion() == HttpVersion.HTTP_1_0;
        boolean noBody = HttpMethod.HEAD.equals(head.method()) || code == 204 || code == 304;
        keepAlive = ProxyHeaders.prepareResponse(nodeResponse, keepAlive, http10, noBody);
        if (insertCookie && !affinity.setsOwnRoute(nodeResponse.headers(), node)) {
            nodeResponse.headers().add(HttpHeaderNames.SET_COOKIE, affinity.setCookieFor(node));
        }
        client.write(nodeResponse, client.voidPromise());
    }

    private void onResponseContent(Channel channel, HttpContent content) {
        if (content.decoderResult().isFailure()) {
            Throwable cause = content.decoderResult().cause();
            content.release();
            fail(HttpResponseStatus.BAD_GATEWAY, cause instanceof BadMessage bad ? bad.reason()
                    : "invalid response body from node " + node.name());
            return;
        }
        boolean last = content instanceof LastHttpContent;
        if (response == ResponsePhase.NONE) {
            content.release(); // nothing of a response is relayed before its head
            return;
        }
        if (last && response == ResponsePhase.STREAMING) {
            HttpHeaders trailers = ((LastHttpContent) content).trailingHeaders();
            String report = trailers.get(ProxyHeaders.LOAD_REPORT);
            if (report != null) {
                server.loadReportSink().onLoadReport(node, report);
            }
            ProxyHeaders.stripTrailers(trailers);
        }
        client.write(content, client.voidPromise());
        if (!last) {
            return;
        }
        if (response == ResponsePhase.INFORMATIONAL) {
            response = ResponsePhase.NONE;
        } else if (status == 101) {
            switchProtocols(channel);
        } else {
            complete();
        }
    }

    // ---- a retry: SENDING/SENT → CONNECTING, once, to another node -------------------------------

    /**
     * The node failed this request before any byte of its response ({@code what} it did), in a way the cluster's
     * {@code retryOn} names (the caller checked): sends the request once more, to another node, when
     * {@link Replay} allows it and the cluster's retry budget has room.
     * The first attempt counts as a failure of its node. Returns whether the request is on its way again.
     */
    private boolean retryElsewhere(String what) {
        if (retried || binding != null || responseBytes || response != ResponsePhase.NONE
                || !Replay.allowed(head, uploadProgress)) {
            return false;
        }
        RetryBudget budget = cluster.retryBudget();
        if (!budget.tryAcquire(cluster.counters().activeRequests())) {
            log.debug("cluster {}: retry budget spent; {} {} not retried", cluster.name(), head.method(), head.uri());
            return false;
        }
        NodeState failed = node;
        NodeState next = cluster.pick(failed, head.uri());
        if (next == null || next == failed || !next.tryAdmit()) {
            budget.release();
            return false;
        }
        holdsRetry = true;
        retried = true;
        Channel channel = backend;
        backend = null;
        flushPending = false;
        cluster.outcomes().onGatewayFailure(failed); // outlier detection (issue 15)
        failed.counters().requestFailed();
        failed.requestFailed();
        failed.requestEnded(-1);
        failed.assignmentEnded();
        BackendHandler.of(channel).detach();
        channel.close();
        releaseSlot();
        admitted = next;
        cluster.counters().retried();
        log.info("cluster {}: {} {}: node {} {} before answering; retried on node {}", cluster.name(),
                head.method(), head.uri(), failed.name(), what, next.name());
        replayLast = uploadProgress > 0; // bodyless: its empty end was sent, and is sent again
        request = RequestPhase.CONNECTING;
        connectingSinceNanos = ticker.nanoTime();
        frontend.resume(PAUSE_BACKPRESSURE);
        dispatch(next);
        return true;
    }

    // ---- back to IDLE -----------------------------------------------------------------------------

    /** The response is complete: account, recycle the node connection, go on with the next request. */
    private void complete() {
        Channel channel = backend;
        boolean requestDone = request == RequestPhase.SENT;
        boolean reusable = nodeKeepAlive && requestDone;
        if (!requestDone) {
            keepAlive = false; // the node answered before the body ended: the rest cannot be resynchronised
        }
        end(true);
        if (binding != null) {
            if (!reusable) {
                binding.release(false, null);
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
        if (binding != null && binding.holds(channel)) {
            binding.release(false, channel);
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
        if (!active()) {
            return;
        }
        if (waitingOn != null) {
            waitingOn.cancel(this);
            waitingOn = null;
        }
        if (request == RequestPhase.QUEUED) {
            queue.left(this, ticker.nanoTime() - queuedNanos);
        }
        Channel channel = backend;
        if (channel != null && error != null && error.code() >= 502) {
            cluster.outcomes().onGatewayFailure(node); // the node failed it: outlier detection (issue 15)
        }
        boolean started = response == ResponsePhase.STREAMING;
        boolean requestComplete = request == RequestPhase.SENT
                || (request != RequestPhase.SENDING && head != null && head.bodyless());
        status = error == null ? 499 : error.code();
        end(false);
        if (channel != null) {
            BackendHandler.of(channel).detach();
            channel.close();
            if (binding != null && binding.holds(channel)) {
                binding.release(false, channel);
            }
        }
        if (error == null) {
            return;
        }
        log.debug("client {} {}: {} {}", frontend.clientIp(), head == null ? "-" : head.uri(), error.code(), reason);
        if (started || !client.isActive()) {
            frontend.abort();
        } else if (requestComplete && keepAlive) {
            frontend.respondAndContinue(errorResponse(error, reason, false));
        } else {
            frontend.closeAfter(errorResponse(error, reason, true));
        }
    }

    private FullHttpResponse errorResponse(HttpResponseStatus error, String reason, boolean close) {
        FullHttpResponse response = ErrorResponses.of(error, reason, close);
        if (retryAfter) {
            response.headers().set(HttpHeaderNames.RETRY_AFTER, "1"); // full, not broken: worth another try soon
        }
        return response;
    }

    /** The client connection closed: whatever runs fails, and a bound node connection goes back to its pool. */
    void onClientClosed() {
        fail(null, "client closed the connection");
        if (binding != null) {
            binding.release(true, backend);
        }
    }

    /** Counters, node bookkeeping and access log of the exchange; exactly once per exchange. */
    private void end(boolean success) {
        boolean headSent = request == RequestPhase.SENDING || request == RequestPhase.SENT;
        request = RequestPhase.IDLE;
        response = ResponsePhase.NONE;
        long now = ticker.nanoTime();
        frontend.exchangeEnded(now);
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
                node.requestFailed();
                node.requestEnded(-1);
            }
        }
        if (headSent && binding == null) {
            node.assignmentEnded();
        }
        releaseSlot();
        if (holdsRetry) {
            holdsRetry = false;
            cluster.retryBudget().release();
        }
        logAccess(frontend.clientIp(), head.method(), head.uri(), headSent ? node : null, status, latency);
        backend = null;
        frontend.resume(PAUSE_CONNECT | PAUSE_BACKPRESSURE | PAUSE_UPGRADE);
    }

    static void logAccess(String clientIp, HttpMethod method, String uri, NodeState node, int status, long nanos) {
        // The same logger, level and line as TCP tunnels; the body size is not tracked here yet ("-").
        if (AccessLog.enabled()) {
            AccessLog.http(clientIp, method == null ? null : method.name(), uri, status,
                    node == null ? null : node.name(), -1, nanos / 1_000_000);
        }
    }

    void onBackendClosed(Channel channel) {
        if (channel == backend && active()) {
            if (!retryOn.reset() || !retryElsewhere("closed the connection")) {
                fail(HttpResponseStatus.BAD_GATEWAY, "node " + node.name() + " closed the connection");
            }
        } else if (binding != null && binding.holds(channel)) {
            binding.release(false, null);
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
        if (flushPending && backend != null) {
            flushPending = false;
            backend.flush();
        }
    }

    // ---- deadlines --------------------------------------------------------------------------------

    /**
     * Checks this exchange's deadlines at {@code now}, ending it when one has passed, and returns when
     * the next one falls ({@link Long#MAX_VALUE} when the exchange is over). Progress counted since the
     * last check moves the idle deadlines forward.
     */
    long checkDeadlines(long now) {
        if (!active()) {
            return Long.MAX_VALUE;
        }
        long next = Long.MAX_VALUE;
        if (exchangeTimeoutNanos > 0) {
            long due = startNanos + exchangeTimeoutNanos;
            if (now - due >= 0) {
                return timeOut(response == ResponsePhase.STREAMING ? HttpResponseStatus.GATEWAY_TIMEOUT
                        : HttpResponseStatus.REQUEST_TIMEOUT, "exchange not complete within "
                        + cluster.config().exchangeTimeoutMsOrDefault() + " ms");
            }
            next = due;
        }
        switch (request) {
            case QUEUED: {
                long due = queuedNanos + queue.timeoutNanos();
                if (now - due >= 0) {
                    log.info("cluster {}: client {} {} {}: no node free within queueTimeoutMs {}", cluster.name(),
                            frontend.clientIp(), head.method(), head.uri(), cluster.config().queueTimeoutMsOrDefault());
                    retryAfter = true;
                    fail(HttpResponseStatus.SERVICE_UNAVAILABLE, "no node of cluster " + cluster.name()
                            + " free within " + cluster.config().queueTimeoutMsOrDefault() + " ms");
                    return Long.MAX_VALUE;
                }
                next = Math.min(next, due);
                break;
            }
            case CONNECTING: {
                long due = connectingSinceNanos + responseTimeoutNanos;
                if (now - due >= 0) {
                    return timeOut(HttpResponseStatus.GATEWAY_TIMEOUT, (node != null ? "node " + node.name()
                            : "cluster " + cluster.name()) + ": no connection within "
                            + cluster.config().responseTimeoutMsOrDefault() + " ms");
                }
                next = Math.min(next, due);
                break;
            }
            case SENDING: {
                if (uploadProgress != uploadProgressSeen) {
                    uploadProgressSeen = uploadProgress;
                    uploadSeenNanos = now;
                }
                long due = uploadSeenNanos + requestIdleNanos;
                if (now - due >= 0) {
                    return timeOut(HttpResponseStatus.REQUEST_TIMEOUT, "request body stalled for "
                            + cluster.config().requestIdleTimeoutMsOrDefault() + " ms");
                }
                next = Math.min(next, due);
                break;
            }
            default:
                break;
        }
        if (response == ResponsePhase.STREAMING) {
            if (responseProgress != responseProgressSeen) {
                responseProgressSeen = responseProgress;
                responseSeenNanos = now;
            }
            long due = responseSeenNanos + responseIdleNanos;
            if (now - due >= 0) {
                return timeOut(HttpResponseStatus.GATEWAY_TIMEOUT, "response from node " + node.name()
                        + " stalled for " + cluster.config().responseIdleTimeoutMsOrDefault() + " ms");
            }
            next = Math.min(next, due);
        } else if (request == RequestPhase.SENT) {
            long due = requestDoneNanos + responseTimeoutNanos;
            if (now - due >= 0) {
                if (retryOn.responseTimeout() && retryElsewhere("did not answer within "
                        + cluster.config().responseTimeoutMsOrDefault() + " ms")) {
                    return checkDeadlines(now);
                }
                return timeOut(HttpResponseStatus.GATEWAY_TIMEOUT, "node " + node.name() + " did not answer within "
                        + cluster.config().responseTimeoutMsOrDefault() + " ms");
            }
            next = Math.min(next, due);
        }
        return next;
    }

    private long timeOut(HttpResponseStatus status, String reason) {
        log.info("cluster {}: client {} {} {}: {}", cluster.name(), frontend.clientIp(), head.method(), head.uri(),
                reason);
        keepAlive = false;
        fail(status, reason);
        return Long.MAX_VALUE;
    }
}
