package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.logging.AccessLog;
import io.netty.handler.codec.http.HttpMethod;

/** The access-log line of an HTTP request, served or refused: the same logger, level and line as TCP tunnels. */
final class HttpAccessLog {

    private HttpAccessLog() {
    }

    /** {@code method}, {@code uri} and {@code node} may be null (a request refused before or without a node). */
    static void request(String clientIp, HttpMethod method, String uri, NodeState node, int status, long nanos) {
        if (AccessLog.enabled()) { // the body size is not tracked here yet ("-")
            AccessLog.http(clientIp, method == null ? null : method.name(), uri, status,
                    node == null ? null : node.name(), -1, nanos / 1_000_000);
        }
    }
}
