package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.http.codec.ProxiedRequest;
import io.loadwise.dispatcher.tracing.TraceContext;
import io.loadwise.dispatcher.tracing.Tracing;
import io.netty.handler.codec.http.HttpHeaders;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;
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

    private static final TextMapGetter<HttpHeaders> GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(HttpHeaders carrier) {
            return List.of(TraceContext.TRACEPARENT.toString(), TraceContext.TRACESTATE.toString());
        }

        @Override
        public String get(HttpHeaders carrier, String key) {
            return carrier == null ? null : carrier.get(key);
        }
    };
    private static final TextMapSetter<HttpHeaders> SETTER = (carrier, key, value) -> carrier.set(key, value);

    private Tracer tracer;
    private Span server;
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
        TraceContext.keepValid(headers);
        this.cluster = cluster;
        this.node = null;
        nodeProtocol = cluster.config().nodeProtocolOrDefault().multiplexed() ? "2" : "1.1";
        Context parent = W3CTraceContextPropagator.getInstance().extract(Context.root(), headers, GETTER);
        server = tracer.spanBuilder(head.method().name()).setParent(parent).setSpanKind(SpanKind.SERVER)
                .setAttribute(METHOD, head.method().name())
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
     * The request goes to {@code node} after {@code queuedNanos} in the cluster's queue ({@code Tw}) and
     * {@code connectNanos} connecting ({@code Tc}; 0 on a pooled connection, negative when unknown): a client span.
     */
    void attempt(ProxiedRequest head, NodeState node, long queuedNanos, long connectNanos) {
        if (server == null) {
            return;
        }
        attempts++;
        this.node = node;
        client = tracer.spanBuilder(head.method().name()).setParent(Context.root().with(server))
                .setSpanKind(SpanKind.CLIENT)
                .setAttribute(NODE, node.name())
                .setAttribute(PEER, node.address().getHostString())
                .setAttribute(PEER_PORT, (long) node.address().getPort())
                .setAttribute(NODE_PROTOCOL, nodeProtocol)
                .setAttribute(NODE_IN_FLIGHT, (long) node.inFlightRequests())
                .setAttribute(NODE_CONNECTIONS, (long) node.activeConnections())
                .setAttribute(QUEUE_MS, queuedNanos / (double) TimeUnit.MILLISECONDS.toNanos(1))
                .setAttribute(ATTEMPT, (long) attempts)
                .startSpan();
        if (connectNanos >= 0) {
            client.setAttribute(CONNECT_MS, connectNanos / (double) TimeUnit.MILLISECONDS.toNanos(1));
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
     * The exchange ended with {@code status} (0: none sent); {@code termination} as the access log says it;
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
        if (termination != null) {
            server.setAttribute(TERMINATION, termination);
        }
        if (status >= 500 || status <= 0) {
            server.setStatus(StatusCode.ERROR);
        }
        server.end();
        server = null;
        tracer = null;
        cluster = null;
        node = null;
    }

    private static void propagate(HttpHeaders headers, Span span) {
        headers.remove(TraceContext.TRACEPARENT);
        W3CTraceContextPropagator.getInstance().inject(Context.root().with(span), headers, SETTER);
    }
}
