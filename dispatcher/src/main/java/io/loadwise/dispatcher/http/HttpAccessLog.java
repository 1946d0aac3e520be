package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.http.codec.ProxiedRequest;
import io.loadwise.dispatcher.logging.AccessLog;
import io.loadwise.dispatcher.logging.AccessRecord;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.util.AsciiString;
import java.net.InetSocketAddress;

/**
 * The access-log record of an HTTP request, served or refused: filled on the event loop from what the connection
 * and the exchange already hold (no formatting), only when the access log is on.
 */
final class HttpAccessLog {

    private static final AsciiString TRACEPARENT = AsciiString.cached("traceparent");

    private HttpAccessLog() {
    }

    /**
     * A request the exchange served or failed. {@code node} is null when no request head reached one;
     * {@code deadlines} holds the request body bytes passed on and when the response head came, {@code bytesOut}
     * is the response body bytes written to the client.
     */
    static void exchange(Channel client, String clientIp, ProxiedRequest head, String cluster, NodeState node,
            int status, ExchangeDeadlines deadlines, long bytesOut, long nanos) {
        if (AccessLog.enabled()) {
            AccessRecord r = record(client, clientIp, head, status, nanos);
            r.protocol = head.clientVersion().text();
            r.cluster = cluster;
            r.node = node == null ? null : node.name();
            r.bytesIn = deadlines.uploadedBytes();
            r.nodeResponseMillis = deadlines.nodeResponseMillis();
            r.bytesOut = bytesOut;
            AccessLog.write(r);
        }
    }

    /** A request the connection answered by itself; {@code request} is null when its head could not be read. */
    static void answered(Channel client, String clientIp, HttpRequest request, int status) {
        if (AccessLog.enabled()) {
            AccessRecord r = record(client, clientIp, request, status, 0);
            if (request != null) {
                r.protocol = request.protocolVersion().text();
            }
            AccessLog.write(r);
        }
    }

    private static AccessRecord record(Channel client, String clientIp, HttpRequest request, int status, long nanos) {
        AccessRecord r = new AccessRecord();
        r.totalMillis = nanos / 1_000_000;
        r.startMillis = System.currentTimeMillis() - r.totalMillis;
        r.client = clientIp;
        if (client.remoteAddress() instanceof InetSocketAddress remote) {
            r.clientPort = remote.getPort();
        }
        r.status = status;
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
}
