package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.acquire.NodeAcquisition;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.http.codec.ProxiedRequest;
import io.loadwise.dispatcher.tracing.TraceContext;
import io.loadwise.dispatcher.tracing.Tracing;
import io.netty.handler.codec.http.HttpHeaders;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The spans of one exchange (issue 33, item 3): a SERVER span per request, child of the client's
 * {@code traceparent} when it brings a valid one, and a CLIENT span per node attempt, child of the server span, whose
 * context the node gets as its {@code traceparent} (with the client's {@code tracestate}). A retry is a second
 * CLIENT span. With tracing off ({@link Tracing#tracer()} null) no span is made and no clock read: the headers are
 * only validated ({@link TraceContext#sanitize}). A sampled request that completes is its cluster's and node's
 * request-duration exemplar (OpenMetrics). One per {@link Exchange}, on its event loop.
 */
final class ExchangeTrace {

    static final AttributeKey<String> ROUTE = AttributeKey.stringKey("loadwise.route");
    static final AttributeKey<String> CLUSTER = AttributeKey.stringKey("loadwise.cluster");
    static final AttributeKey<String> POLICY = AttributeKey.stringKey("loadwise.policy");
    static final AttributeKey<String> NODE = AttributeKey.stringKey("loadwise.node");
    static final AttributeKey<Long> NODE_IN_FLIGHT = AttributeKey.longKey("loadwise.node.in_flight");
    static final AttributeKey<Long> NODE_CONNECTIONS = AttributeKey.longKey("loadwise.node.active_connections");
    static final AttributeKey<Double> QUEUE_MS = AttributeKey.doubleKey("loadwise.queue_time_ms");
    static final AttributeKey<Double> CONNECT_MS = AttributeKey.doubleKey("loadwise.connect_time_ms");
    static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("loadwise.attempt");
    static final AttributeKey<String> RETRY_REASON = AttributeKey.stringKey("loadwise.retry_reason");
    /** What the node is spoken to in: {@code 1.1}, or {@code 2} ({@code nodeProtocol} h2, h2c). */
    static final AttributeKey<String> NODE_PROTOCOL = AttributeKey.stringKey("network.protocol.version");
    static final AttributeKey<String> TERMINATION = AttributeKey.stringKey("loadwise.termination");
    static final AttributeKey<String> METHOD = AttributeKey.stringKey("http.request.method");
    static final AttributeKey<String> TARGET = AttributeKey.stringKey("url.path");
    static final AttributeKey<Long> STATUS = AttributeKey.longKey("http.response.status_code");
    static final AttributeKey<String> PEER = AttributeKey.stringKey("server.address");
    static final AttributeKey<Long> PEER_PORT = AttributeKey.longKey("server.port");

    /** Reads only what {@link TraceContext#keepValid} has checked: one valid {@code traceparent}, its state. */
    private static final TextMapGetter<HttpHeaders> GETTER = new TextMapGetter<>() {
        private final List<String> keys = List.of(TraceContext.TRACEPARENT.toString(), TraceContext.TRACESTATE.toString());

        @Override
        public Iterable<String> keys(HttpHeaders carrier) {
            return keys;
        }

        @Override
        public String get(HttpHeaders carrier, String key) {
            return carrier == null ? null
                    : carrier.get(key.equals("traceparent") ? TraceContext.TRACEPARENT : TraceContext.TRACESTATE);
        }
    };
    private static final double NANOS_PER_MS = TimeUnit.MILLISECONDS.toNanos(1);

    private Tracer tracer;
    private Span server;
    /** The server span as a parent, made at the first attempt; a retry's client span has the same. */
    private Context serverContext;
    private Span client;
    private VirtualCluster cluster;
    /** The node of the last attempt: the one that answered, when the request completed. */
    private NodeState node;
    private int attempts;
    private String retryReason;
    private String nodeProtocol = "1.1";

    /** A request begins: its server span, whose context replaces the request's {@code traceparent} for now. */
    void begin(ProxiedRequest head, Route route, VirtualCluster cluster) {
        HttpHeaders headers = head.headers();
        tracer = Tracing.tracer();
        if (tracer == null) {
            TraceContext.sanitize(headers);
            return;
        }
        serverContext = null;
        boolean parented = TraceContext.keepValid(headers);
        this.cluster = cluster;
        this.node = null;
        nodeProtocol = cluster.config().nodeProtocolOrDefault().multiplexed() ? "2" : "1.1";
        String method = head.method().name();
        SpanBuilder builder = tracer.spanBuilder(method).setSpanKind(SpanKind.SERVER);
        if (parented) { // the propagator parses only a header known to be there and valid; its state with it
            builder.setParent(W3CTraceContextPropagator.getInstance().extract(Context.root(), headers, GETTER));
        } else {
            builder.setNoParent();
        }
        server = builder.setAttribute(METHOD, method)
                .setAttribute(TARGET, head.uri())
                .setAttribute(CLUSTER, cluster.name())
                .setAttribute(POLICY, cluster.config().policy())
                .startSpan();
        if (route != null && route.counters() != null && route.counters().name() != null) {
            server.setAttribute(ROUTE, route.counters().name());
        }
        attempts = 0;
        retryReason = null;
        propagate(headers, server);
    }

    /**
     * The request goes to {@code node} after the acquisition's time in the cluster's queue ({@code Tw}) and connecting
     * ({@code Tc}): a client span, with {@code loadwise.connect_time_ms} only when a connection was made for it (one
     * attribute less to size, write and send on the usual pooled attempt).
     */
    void attempt(ProxiedRequest head, NodeState node, NodeAcquisition acquisition) {
        if (server == null) {
            return;
        }
        attempts++;
        this.node = node;
        if (serverContext == null) {
            serverContext = Context.root().with(server);
        }
        client = tracer.spanBuilder(head.method().name()).setParent(serverContext)
                .setSpanKind(SpanKind.CLIENT)
                .setAttribute(NODE, node.name())
                .setAttribute(PEER, node.address().getHostString())
                .setAttribute(PEER_PORT, (long) node.address().getPort())
                .setAttribute(NODE_PROTOCOL, nodeProtocol)
                .setAttribute(NODE_IN_FLIGHT, (long) node.inFlightRequests())
                .setAttribute(NODE_CONNECTIONS, (long) node.activeConnections())
                .setAttribute(QUEUE_MS, acquisition.queuedNanos() / NANOS_PER_MS)
                .setAttribute(ATTEMPT, (long) attempts)
                .startSpan();
        if (!acquisition.pooled() && acquisition.connectNanos() >= 0) {
            client.setAttribute(CONNECT_MS, acquisition.connectNanos() / NANOS_PER_MS);
        }
        if (retryReason != null) {
            client.setAttribute(RETRY_REASON, retryReason);
        }
        server.setAttribute(NODE, node.name());
        propagate(head.headers(), client);
    }

    /** The node failed the attempt before answering; the request goes elsewhere. */
    void attemptFailed(String reason) {
        retryReason = reason;
        if (client != null) {
            client.setStatus(StatusCode.ERROR, reason);
            client.end();
            client = null;
        }
        if (server != null) {
            server.setAttribute(RETRY_REASON, reason);
        }
    }

    /**
     * The exchange ended with {@code status} (0: none sent); {@code termination} as the access log says it, an
     * attribute only when not the normal {@code --} (most requests: 30 bytes of protobuf and a lock less each);
     * {@code completedNanos} the latency the histograms recorded when it completed, negative when it failed.
     */
    void end(int status, String termination, long completedNanos) {
        if (server == null) {
            return;
        }
        if (completedNanos >= 0 && server.getSpanContext().isSampled()) {
            String traceId = server.getSpanContext().getTraceId();
            String spanId = server.getSpanContext().getSpanId();
            cluster.counters().durationExemplar(completedNanos, traceId, spanId);
            if (node != null) {
                node.counters().durationExemplar(completedNanos, traceId, spanId);
            }
        }
        if (client != null) {
            if (status > 0) {
                client.setAttribute(STATUS, (long) status);
            }
            if (status >= 500 || status <= 0) {
                client.setStatus(StatusCode.ERROR);
            }
            client.end();
            client = null;
        }
        if (status > 0) {
            server.setAttribute(STATUS, (long) status);
        }
        if (termination != null && !termination.equals(Terminations.NORMAL)) { // a normal end (--) has none
            server.setAttribute(TERMINATION, termination);
        }
        if (status >= 500 || status <= 0) {
            server.setStatus(StatusCode.ERROR);
        }
        server.end();
        server = null;
        serverContext = null;
        tracer = null;
        cluster = null;
        node = null;
    }

    /**
     * {@code span}'s context as the request's {@code traceparent}, written as the W3C propagator writes it (version
     * 00, the span's flags) without its context and carrier objects. The {@code tracestate} stays as the client sent
     * it: the span's state is its parent's, which {@link TraceContext#keepValid} left in the headers, or none.
     */
    private static void propagate(HttpHeaders headers, Span span) {
        SpanContext context = span.getSpanContext();
        if (context.isValid()) {
            headers.set(TraceContext.TRACEPARENT,
                    "00-" + context.getTraceId() + "-" + context.getSpanId() + "-" + context.getTraceFlags().asHex());
        } else {
            headers.remove(TraceContext.TRACEPARENT);
        }
    }
}
