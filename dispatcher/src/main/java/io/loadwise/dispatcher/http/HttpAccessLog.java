package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.net.ClientAddress;
import io.loadwise.dispatcher.acquire.NodeAcquisition;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.http.codec.ProxiedRequest;
import io.loadwise.dispatcher.logging.AccessLog;
import io.loadwise.dispatcher.logging.AccessRecord;
import io.loadwise.dispatcher.metrics.TrafficCounters;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.AsciiString;
import java.net.InetSocketAddress;

/**
 * The access-log records of one client connection (or HTTP/2 stream), served or refused: filled on the event loop
 * from what the connection and the exchange already hold (no formatting), only when the access log is on. Also
 * counts each request's termination state, log or not. Confined to the connection's event loop.
 */
final class HttpAccessLog {

    private static final AsciiString TRACEPARENT = AsciiString.cached("traceparent");
    private static final String H2 = "h2";
    private static final String H3 = "h3";

    private final Channel client;
    private final RequestSource source;
    private final String listener;
    /** The connection was accepted, or its previous request ended: the next head's time ({@code Th}) starts. */
    private long idleSinceNanos;
    /** The client address of the request being served, read before the forwarding headers are rewritten. */
    private String forwardedFor;
    private boolean tlsRead;
    private String tlsVersion;
    private String alpn;

    HttpAccessLog(Channel client, RequestSource source, String listener, long acceptedNanos) {
        this.client = client;
        this.source = source;
        this.listener = listener;
        this.idleSinceNanos = acceptedNanos;
    }

    /** A request goes to a cluster; called before its head is rewritten. */
    void begin(HttpRequest request) {
        forwardedFor = AccessLog.enabled() ? source.clientIp(request) : null;
    }

    /**
     * A request the exchange served or failed, in termination state {@code state}. {@code node} is null when no
     * request head reached one; {@code responses} holds the route, the status and the response body bytes written
     * to the client; {@code deadlines} when the request began, the request body bytes passed on and when the response
     * head came; {@code acquisition} the queue and connect times and the retries.
     */
    void exchange(ProxiedRequest head, ResponseRelay responses, VirtualCluster cluster, NodeState node, String state,
            ExchangeDeadlines deadlines, long endNanos, NodeAcquisition acquisition) {
        cluster.counters().terminated(state);
        long start = deadlines.startNanos();
        if (AccessLog.enabled()) {
            AccessRecord r = record(head, responses.route(), responses.status(), state, start - idleSinceNanos,
                    endNanos - start);
            r.protocol = streamProtocol(head.clientVersion().text());
            r.forwardedFor = forwardedFor;
            r.cluster = cluster.name();
            r.policy = cluster.config().policy();
            r.node = node == null ? null : node.name();
            r.bytesIn = deadlines.uploadedBytes();
            r.nodeResponseMillis = deadlines.nodeResponseMillis();
            r.queueMillis = acquisition.queuedNanos() / 1_000_000;
            long connect = acquisition.connectNanos();
            r.connectMillis = connect < 0 ? -1 : connect / 1_000_000;
            r.retries = acquisition.retries();
            r.bytesOut = responses.bodyBytes();
            AccessLog.write(r);
        }
        idleSinceNanos = endNanos;
    }

    /**
     * A request the connection answered by itself with {@code status} ({@code -1}: none, the client left), in
     * termination state {@code state}; counted in {@code counters} as started and ended. {@code request} is null
     * when its head could not be read, {@code route} when no route of a table took it.
     */
    void answered(HttpRequest request, Route route, int status, String state, TrafficCounters counters) {
        if (status >= 0) {
            counters.requestStarted();
            if (status >= 400) {
                counters.requestFailed();
            } else {
                counters.requestCompleted(0, 0);
            }
        }
        counters.terminated(state);
        if (AccessLog.enabled()) {
            long now = client.eventLoop().ticker().nanoTime();
            AccessRecord r = record(request, route, status, state, now - idleSinceNanos, 0);
            if (request != null) {
                r.protocol = streamProtocol(request.protocolVersion().text());
                r.forwardedFor = source.clientIp(request);
            }
            AccessLog.write(r);
            idleSinceNanos = now;
        }
    }

    private AccessRecord record(HttpRequest request, Route route, int status, String state, long headNanos,
            long nanos) {
        AccessRecord r = new AccessRecord();
        r.totalMillis = nanos / 1_000_000;
        r.startMillis = System.currentTimeMillis() - r.totalMillis;
        r.headMillis = headNanos / 1_000_000;
        r.client = source.peerIp();
        if (ClientAddress.of(client) instanceof InetSocketAddress remote) {
            r.clientPort = remote.getPort(); // PROXY header's source, or the peer; an HTTP/2 stream's connection's
        }
        r.listener = listener;
        r.route = route == null ? null : route.name();
        r.status = status;
        r.termination = state;
        readTls();
        r.tlsVersion = tlsVersion;
        r.alpn = alpn;
        r.sni = tlsVersion == null ? null : source.serverName();
        if (request != null) {
            r.method = request.method().name();
            r.target = request.uri();
            r.referer = request.headers().get(HttpHeaderNames.REFERER);
            r.userAgent = request.headers().get(HttpHeaderNames.USER_AGENT);
            r.requestId = request.headers().get(RequestIds.HEADER);
            r.traceparent = request.headers().get(TRACEPARENT);
        }
        return r;
    }

    /** {@code h2} on an HTTP/2 stream, {@code h3} on a QUIC stream, else the request line's version. */
    private String streamProtocol(String http1) {
        return client instanceof Http2StreamChannel ? H2
                : client instanceof io.netty.handler.codec.quic.QuicStreamChannel ? H3 : http1;
    }

    /** The TLS version and ALPN protocol of the connection (an HTTP/2 stream's parent's), read once. */
    private void readTls() {
        if (tlsRead) {
            return;
        }
        tlsRead = true;
        if (client instanceof io.netty.handler.codec.quic.QuicStreamChannel) {
            tlsVersion = "TLSv1.3"; // QUIC is TLS 1.3 only (RFC 9001), its ALPN h3 (RFC 9114 §3.1)
            alpn = H3;
            return;
        }
        for (Channel c = client; c != null; c = c.parent()) {
            SslHandler ssl = c.pipeline().get(SslHandler.class);
            if (ssl != null) {
                tlsVersion = ssl.engine().getSession().getProtocol();
                alpn = ssl.applicationProtocol();
                return;
            }
        }
    }
}
