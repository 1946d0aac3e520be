package io.loadwise.dispatcher.http;

import static io.loadwise.dispatcher.http.ClientConnection.PAUSE_BACKPRESSURE;
import static io.loadwise.dispatcher.http.ClientConnection.PAUSE_CONNECT;
import static io.loadwise.dispatcher.http.ClientConnection.PAUSE_UPGRADE;

import io.loadwise.dispatcher.acquire.NodeAcquisition;
import io.loadwise.dispatcher.acquire.Outcome;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.Affinity;
import io.loadwise.dispatcher.config.Balance;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.http.ExchangeDeadlines.Deadline;
import io.loadwise.dispatcher.http.codec.BadMessage;
import io.loadwise.dispatcher.http.codec.ProxiedRequest;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relay stage of one client connection: moves one request at a time to the node its {@link NodeAcquisition}
 * got, and the response back ({@link ResponseRelay}), then accounts for it or answers with an error. Only
 * {@link FrontendHandler} and {@link BackendHandler} call in; it reaches the client only through
 * {@link ClientConnection}. One per client connection, reused per request, on that connection's event loop.
 *
 * <p>Request: IDLE → (QUEUED →) CONNECTING → SENDING → SENT → IDLE, the first two the acquisition's; a node
 * failing before any response byte may send it back to CONNECTING once, to another node ({@link Replay}).
 * {@link #complete} and {@link #fail} both return to IDLE through {@link #end}, exactly once.
 */
final class Exchange {

    /** Where the request is; QUEUED and CONNECTING are the acquisition's, nothing is sent yet. */
    enum RequestPhase { IDLE, QUEUED, CONNECTING, SENDING, SENT }

    /** Where the node's response is: INFORMATIONAL relays a 1xx; STREAMING, the final response's body. */
    enum ResponsePhase { NONE, INFORMATIONAL, STREAMING }

    private static final Logger log = LoggerFactory.getLogger(Exchange.class);

    private final ClientConnection frontend;
    private final Channel client;
    private final VirtualCluster cluster;
    private final ForwardingHeaders forwarding;
    private final NodeChoice choice;
    private final NodeAcquisition acquisition;
    private final NodeConnection connection;
    private final ExchangeDeadlines deadlines;
    private final ResponseRelay responses;
    private final HttpAccessLog accessLog;
    private final ExchangeTrace trace = new ExchangeTrace(); // the spans, when tracing is on
    /** CONNECTING stands for the whole acquisition; {@link #requestPhase} tells QUEUED apart. */
    private RequestPhase request = RequestPhase.IDLE;
    private ProxiedRequest head; // the request being served, readable once sent; null while IDLE (end())
    private boolean keepAlive; // the client connection stays open after this exchange

    Exchange(HttpProxyServer server, ClientConnection frontend, Channel client, ForwardingHeaders forwarding,
            BackendPools pools, HttpAccessLog accessLog) {
        this.frontend = frontend;
        this.accessLog = accessLog;
        this.client = client;
        this.forwarding = forwarding;
        this.cluster = server.cluster();
        ClusterConfig config = cluster.config();
        NodeBinding binding = config.balanceOrDefault() == Balance.PER_CONNECTION ? new NodeBinding() : null;
        this.connection = new NodeConnection(binding);
        this.choice = new NodeChoice(cluster, config.affinityOrDefault() == Affinity.COOKIE
                ? server.sessionAffinity() : null, server.affinityCounters(), binding);
        this.acquisition = new NodeAcquisition(cluster, client.eventLoop(), choice,
                new PooledConnections(pools, binding, client), this::onAcquired, frontend::deadlineBy);
        this.deadlines = new ExchangeDeadlines(config, cluster.queue().timeoutNanos());
        this.responses = new ResponseRelay(server, client, choice, deadlines);
    }

    boolean active() {
        return request != RequestPhase.IDLE;
    }

    RequestPhase requestPhase() {
        return request == RequestPhase.CONNECTING && acquisition.phase() == NodeAcquisition.Phase.QUEUED
                ? RequestPhase.QUEUED : request;
    }

    ResponsePhase responsePhase() {
        return responses.phase();
    }

    /** Whether {@code msg} can be handled now rather than queued until this exchange ends. */
    boolean accepts(Object msg) {
        return request == RequestPhase.IDLE || (request == RequestPhase.SENDING && !(msg instanceof HttpRequest));
    }

    private long now() {
        return client.eventLoop().ticker().nanoTime();
    }

    void begin(ProxiedRequest proxied, Route route) {
        request = RequestPhase.CONNECTING;
        responses.reset(route);
        frontend.deadlineBy(deadlines.started(now(), Grpc.deadlineOf(proxied.headers())));
        cluster.counters().requestStarted();
        keepAlive = HttpUtil.isKeepAlive(proxied);
        accessLog.begin(proxied);
        choice.prepare(proxied); // the affinity route, before the headers are rewritten
        ProxyHeaders.prepareRequest(proxied, forwarding, proxied.upgrade());
        trace.begin(proxied, route, cluster); // W3C trace context checked; the server span
        head = proxied;
        acquisition.start(proxied.uri());
        if (acquisition.waiting()) {
            frontend.pause(PAUSE_CONNECT); // nothing more of the client is read until the request can go
        }
    }

    /** The acquisition's one result: the node connection to send to, or why there is none. */
    private void onAcquired(Outcome outcome) {
        frontend.resume(PAUSE_CONNECT);
        if (outcome instanceof Outcome.Connected connected) {
            cluster.counters().backendConnectionObtained(connected.waitNanos());
            trace.attempt(head, connected.node(), acquisition);
            send(connection.attach(connected.channel(), connected.node(), connected.waitNanos(), this));
            return;
        }
        Outcome.Refused refused = (Outcome.Refused) outcome;
        fail(ErrorResponses.statusFor(refused.refusal()), refused.reason(), refused.refusal().full(),
                Terminations.of(refused.refusal()));
    }

    /** Sends the request head and whatever body arrived meanwhile to the node. */
    private void send(BackendHandler handler) {
        connection.readWhile(client.isWritable());
        if (!connection.writable()) {
            frontend.pause(PAUSE_BACKPRESSURE);
        }
        long sent = deadlines.sent(now());
        handler.expectResponseTo(HttpMethod.HEAD.equals(head.method()));
        request = RequestPhase.SENDING;
        connection.write(head);
        if (deadlines.uploadProgress() > 0) { // a bodyless request sent again: its empty end went to the first node
            connection.write(LastHttpContent.EMPTY_LAST_CONTENT);
            request = RequestPhase.SENT;
            deadlines.requestDone(sent);
        }
        frontend.drain(); // and flushes the node, unless the client's read batch is still being delivered
    }

    /** A piece of the request body (the last one ends the request). */
    void onRequestContent(HttpContent content) {
        if (request != RequestPhase.SENDING) {
            content.release();
        } else if (content.decoderResult().isFailure()) {
            Throwable cause = content.decoderResult().cause();
            content.release();
            keepAlive = false; // the body's end is unknown: nothing after it can be read
            fail(HttpResponseStatus.BAD_REQUEST, cause instanceof BadMessage bad ? bad.reason() : "malformed request body",
                    false, Terminations.BAD_REQUEST_BODY);
        } else {
            deadlines.uploaded(content.content().readableBytes());
            if (content instanceof LastHttpContent last) {
                ProxyHeaders.stripTrailers(last.trailingHeaders());
                request = RequestPhase.SENT;
                deadlines.requestDone(now());
                if (head.upgrade()) {
                    frontend.pause(PAUSE_UPGRADE); // what follows belongs to the new protocol
                }
            }
            connection.write(content);
        }
    }

    /** A message from a node connection attached to this exchange. */
    void onBackendMessage(Channel channel, Object msg) {
        if (!connection.is(channel) || !active()) {
            ReferenceCountUtil.release(msg);
            channel.close(); // unsolicited bytes on an idle bound connection
            return;
        }
        ResponseRelay.Step step = responses.relay(msg, head, connection.node(), keepAlive);
        keepAlive = responses.clientKeepAlive();
        switch (step) {
            case COMPLETE -> complete();
            case BAD -> fail(HttpResponseStatus.BAD_GATEWAY, responses.badReason(), false, Terminations.node(this));
            case UPGRADE -> { // both connections become a raw byte tunnel
                end(true, Terminations.NORMAL);
                frontend.handOver();
                client.flush();
                TunnelRelay.install(client, connection.upgrade(), cluster.counters());
            }
            case MORE -> { }
        }
    }

    /** The node failed it before answering ({@code reason}, one {@code retryOn} names): whether it went to another. */
    private boolean retryElsewhere(String reason) {
        if (connection.bound() || responses.started() || !Replay.allowed(head, deadlines.uploadProgress())) {
            return false;
        }
        NodeState next = acquisition.retryTarget(connection.node());
        if (next == null) {
            return false;
        }
        cluster.outcomes().onGatewayFailure(connection.node()); // outlier detection (issue 15)
        connection.requestEnded(false, 0, 0);
        connection.discard();
        log.info("cluster {}: {} {}: {} before answering; retried on node {}", cluster.name(), head.method(),
                head.uri(), reason, next.name());
        trace.attemptFailed(reason);
        request = RequestPhase.CONNECTING;
        frontend.resume(PAUSE_BACKPRESSURE);
        acquisition.retry(next);
        if (acquisition.waiting()) {
            frontend.pause(PAUSE_CONNECT);
        }
        return true;
    }

    /** The response is complete: account, recycle the node connection, go on with the next request. */
    private void complete() {
        boolean requestDone = request == RequestPhase.SENT;
        if (!requestDone) {
            keepAlive = false; // the node answered before the body ended: the rest cannot be resynchronised
        }
        end(true, Terminations.NORMAL);
        connection.recycle(responses.nodeKeepAlive() && requestDone);
        if (keepAlive) {
            client.flush();
            frontend.drain();
        } else {
            frontend.answer(Unpooled.EMPTY_BUFFER, true);
        }
    }

    /** Ends the exchange in {@code state}: answers {@code error} (Retry-After when {@code full}: the cluster is full,
     * not broken) while no response byte reached the client, else closes it. {@code null}: the client left. */
    private void fail(HttpResponseStatus error, String reason, boolean full, String state) {
        if (!active()) {
            return;
        }
        if (connection.attached() && error != null && error.code() >= 502) {
            cluster.outcomes().onGatewayFailure(connection.node()); // the node failed it: outlier detection (issue 15)
        }
        boolean started = responses.phase() == ResponsePhase.STREAMING;
        boolean requestComplete = request == RequestPhase.SENT
                || (request != RequestPhase.SENDING && head != null && head.bodyless());
        responses.failedWith(error == null ? 499 : error.code());
        ProxiedRequest failed = head; // end() lets go of it
        end(false, state);
        connection.discard();
        if (error == null) {
            return;
        }
        log.debug("client {} {}: {} {}", forwarding.clientIp(), failed == null ? "-" : failed.uri(), error.code(), reason);
        if (started || !client.isActive()) {
            frontend.abort();
            return;
        }
        boolean close = !(requestComplete && keepAlive);
        frontend.answer(RequestIds.answer(failed, ErrorResponses.of(failed, error, reason, close, full)), close);
    }

    /** The client connection closed: whatever runs fails, and a bound node connection goes back to its pool. */
    void onClientClosed() {
        fail(null, "client closed the connection", false, Terminations.client(this));
        connection.clientClosed();
    }

    /** Counters, node bookkeeping and access log of the exchange, ended in {@code state}; exactly once each. */
    private void end(boolean success, String state) {
        boolean headSent = request == RequestPhase.SENDING || request == RequestPhase.SENT;
        request = RequestPhase.IDLE;
        long now = now();
        long latency = now - deadlines.startNanos();
        responses.ended(latency);
        frontend.exchangeEnded(now);
        long processing = now - deadlines.sentNanos();
        cluster.counters().requestEnded(success, latency, processing);
        if (headSent) {
            connection.requestEnded(success, latency, processing);
        }
        acquisition.finish(); // the node's slot, the place in the queue, the retry held
        trace.end(responses.status(), state, success ? latency : -1);
        accessLog.exchange(head, responses, cluster, headSent ? connection.node() : null, state, deadlines, now,
                acquisition);
        head = null; // an idle keep-alive connection holds nothing of its last request, nor its route
        responses.forget();
        frontend.resume(PAUSE_CONNECT | PAUSE_BACKPRESSURE | PAUSE_UPGRADE);
    }

    void onBackendClosed(Channel channel) {
        if (connection.is(channel) && active()) {
            String reason = "node " + connection.node().name() + " closed the connection";
            if (!NodeConnection.retryable(channel, acquisition.retryOn()) || !retryElsewhere(reason)) {
                fail(HttpResponseStatus.BAD_GATEWAY, reason, false, Terminations.node(this));
            }
        } else {
            connection.closedElsewhere(channel);
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
        deadlines.clientWritable(writable);
        connection.readWhile(writable);
    }

    void flushClient() {
        client.flush();
    }

    void flushBackend() {
        connection.flush();
    }

    /** Ends the exchange if a deadline passed at {@code now}; when the next falls ({@link Long#MAX_VALUE}: over). */
    long checkDeadlines(long now) {
        if (!active()) {
            return Long.MAX_VALUE;
        }
        Deadline passed = deadlines.check(now, requestPhase(), responses.phase(), acquisition.sinceNanos());
        if (passed == null) {
            return deadlines.nextDue();
        }
        String reason = deadlines.reason(passed, passed == Deadline.CONNECT ? acquisition.node() : connection.node(),
                cluster.name());
        if (passed == Deadline.RESPONSE && acquisition.retryOn().responseTimeout() && retryElsewhere(reason)
                || passed == Deadline.CONNECT && acquisition.connectElsewhere(reason, () -> trace.attemptFailed(reason))) {
            return checkDeadlines(now);
        }
        log.info("cluster {}: client {} {} {}: {}", cluster.name(), forwarding.clientIp(), head.method(), head.uri(),
                reason);
        keepAlive &= passed == Deadline.QUEUE; // only a queued request was not read beyond its head: it may go on
        fail(ExchangeDeadlines.status(passed, responses.phase() == ResponsePhase.STREAMING), reason,
                passed == Deadline.QUEUE, Terminations.of(passed, this));
        return Long.MAX_VALUE;
    }
}
