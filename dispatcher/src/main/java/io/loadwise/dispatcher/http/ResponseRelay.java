package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.http.Exchange.ResponsePhase;
import io.loadwise.dispatcher.http.codec.BadMessage;
import io.loadwise.dispatcher.http.codec.ProxiedRequest;
import io.netty.channel.Channel;
import io.netty.handler.codec.DecoderResultProvider;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

/**
 * The response half of the relay: writes what a node answers to the client, a 1xx at a time and then the
 * final response, rewriting its head for the client (hop-by-hop fields, framing, affinity cookie, the
 * response filters) and taking out the piggybacked load reports. Says what each message meant
 * ({@link Step}); the {@link Exchange} decides what follows. One per client connection, on its event loop.
 */
final class ResponseRelay {

    /** What a message from the node meant to the exchange. */
    enum Step {
        /** More of the response follows. */
        MORE,
        /** The final response ended. */
        COMPLETE,
        /** A 101 ended: both connections become a byte tunnel. */
        UPGRADE,
        /** The node sent what cannot be relayed: {@link #badReason()} says what. */
        BAD
    }

    private final HttpProxyServer server;
    private final VirtualCluster cluster;
    private final Channel client;
    private final NodeChoice choice;
    private final ExchangeDeadlines deadlines;
    private ResponsePhase phase = ResponsePhase.NONE;
    /** Something of a response (a 1xx too) came from the node: the request is not sent again. */
    private boolean started;
    /** The node connection may serve another request after this response. */
    private boolean nodeKeepAlive;
    /** The client connection may stay open after this response, as far as it has told. */
    private boolean clientKeepAlive;
    private int status;
    /** Bytes of the final response's body written to the client (the access log's bytes out). */
    private long bodyBytes;
    private String badReason;
    /** The route of the request being served: its response filters and counter. */
    private Route route;

    ResponseRelay(HttpProxyServer server, Channel client, NodeChoice choice, ExchangeDeadlines deadlines) {
        this.server = server;
        this.deadlines = deadlines;
        this.cluster = server.cluster();
        this.client = client;
        this.choice = choice;
    }

    /** The route of the request being served (until {@link #forget}). */
    Route route() {
        return route;
    }

    /** A new request on {@code route}: nothing of its response came yet. */
    void reset(Route route) {
        this.route = route;
        phase = ResponsePhase.NONE;
        started = false;
        status = 0;
        bodyBytes = 0;
    }

    /** The exchange ended after {@code nanos}: no response is relayed any more; the route counts it. */
    void ended(long nanos) {
        phase = ResponsePhase.NONE;
        if (route != null && route.counters() != null) {
            route.counters().answered(status, nanos);
        }
    }

    /** The exchange is over and accounted: an idle connection keeps nothing of the request's route. */
    void forget() {
        route = null;
        badReason = null;
    }

    ResponsePhase phase() {
        return phase;
    }

    /** Anything of a response came from the node, a 1xx too. */
    boolean started() {
        return started;
    }

    boolean nodeKeepAlive() {
        return nodeKeepAlive;
    }

    long bodyBytes() {
        return bodyBytes;
    }

    int status() {
        return status;
    }

    /** The status the exchange ends with when it did not complete (no response from the node). */
    void failedWith(int code) {
        status = code;
    }

    String badReason() {
        return badReason;
    }

    /**
     * Relays {@code msg} from {@code node} answering {@code head}; {@code keepAlive}: the client connection may
     * stay open so far. {@link #clientKeepAlive} then says whether it still may.
     */
    Step relay(Object msg, ProxiedRequest head, NodeState node, boolean keepAlive) {
        started = true;
        clientKeepAlive = keepAlive;
        deadlines.responded();
        if (msg instanceof HttpResponse nodeResponse) {
            return onHead(nodeResponse, head, node);
        } else if (msg instanceof HttpContent content) {
            return onContent(content, node);
        }
        ReferenceCountUtil.release(msg);
        return Step.MORE;
    }

    boolean clientKeepAlive() {
        return clientKeepAlive;
    }

    private Step onHead(HttpResponse nodeResponse, ProxiedRequest head, NodeState node) {
        int code = nodeResponse.status().code();
        if (nodeResponse.decoderResult().isFailure() || (code == 101 && !head.upgrade())) {
            return bad(nodeResponse, "invalid response from node " + node.name());
        }
        loadReport(nodeResponse.headers(), node, true);
        if (code < 200 && code != 101) {
            phase = ResponsePhase.INFORMATIONAL; // 100 Continue and friends: relay, the final one follows
            ProxyHeaders.stripHopByHop(nodeResponse.headers(), false);
            client.write(nodeResponse, client.voidPromise());
            return Step.MORE;
        }
        phase = ResponsePhase.STREAMING;
        status = code;
        long now = client.eventLoop().ticker().nanoTime();
        deadlines.responseStarted(now);
        cluster.answered(node, head.uri(), code, now); // what policies and outlier detection count
        nodeKeepAlive = HttpUtil.isKeepAlive(nodeResponse);
        if (head.upgrade() && code != 101) {
            clientKeepAlive = false; // the client may already be sending the new protocol: not readable as HTTP
        }
        boolean noBody = HttpMethod.HEAD.equals(head.method()) || code == 204 || code == 304;
        clientKeepAlive = ProxyHeaders.prepareResponse(nodeResponse, clientKeepAlive,
                head.clientVersion() == HttpVersion.HTTP_1_0, noBody);
        choice.addCookie(nodeResponse.headers(), node);
        route.filters().onResponseHead(head, nodeResponse);
        RequestIds.answer(head, nodeResponse);
        client.write(nodeResponse, client.voidPromise());
        // a whole response in one message: an HTTP/2 node's HEADERS with END_STREAM (gRPC's Trailers-Only)
        return nodeResponse instanceof LastHttpContent && code != 101 ? Step.COMPLETE : Step.MORE;
    }

    private Step onContent(HttpContent content, NodeState node) {
        if (content.decoderResult().isFailure()) {
            return bad(content, "invalid response body from node " + node.name());
        }
        boolean last = content instanceof LastHttpContent;
        if (phase == ResponsePhase.NONE) {
            content.release(); // nothing of a response is relayed before its head
            return Step.MORE;
        }
        if (last && phase == ResponsePhase.STREAMING) {
            HttpHeaders trailers = ((LastHttpContent) content).trailingHeaders();
            loadReport(trailers, node, false);
            ProxyHeaders.stripTrailers(trailers);
        }
        if (phase == ResponsePhase.STREAMING) {
            bodyBytes += content.content().readableBytes();
        }
        client.write(content, client.voidPromise());
        if (!last) {
            return Step.MORE;
        }
        if (phase == ResponsePhase.INFORMATIONAL) {
            phase = ResponsePhase.NONE;
            return Step.MORE;
        }
        return status == 101 ? Step.UPGRADE : Step.COMPLETE;
    }

    private Step bad(DecoderResultProvider msg, String otherwise) {
        Throwable cause = msg.decoderResult().cause();
        ReferenceCountUtil.release(msg);
        badReason = cause instanceof BadMessage bad ? bad.reason() : otherwise;
        return Step.BAD;
    }

    /** The piggybacked load report of a response head or its trailers goes to the sink, not to the client. */
    private void loadReport(HttpHeaders headers, NodeState node, boolean remove) {
        String report = headers.get(ProxyHeaders.LOAD_REPORT);
        if (report != null) {
            if (remove) {
                headers.remove(ProxyHeaders.LOAD_REPORT);
            }
            server.loadReportSink().onLoadReport(node, report);
        }
    }
}
