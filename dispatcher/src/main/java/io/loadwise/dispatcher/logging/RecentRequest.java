package io.loadwise.dispatcher.logging;

/**
 * One finished request as the console's live request page shows it: an immutable copy of an {@link AccessRecord}'s
 * fields, made on the access-log writer's thread, never on an event loop. A {@code null} text or a negative number is
 * unknown, as in the record. The texts are what the client sent, unescaped: whoever shows them escapes them.
 *
 * @param termination two letters of {@link io.loadwise.dispatcher.metrics.Termination}
 */
public record RecentRequest(long startMillis, String client, String listener, String route, String cluster,
        String node, String method, String target, String protocol, int status, String termination, int retries,
        long bytesIn, long bytesOut, long totalMillis, String requestId) {

    static RecentRequest of(AccessRecord r) {
        return new RecentRequest(r.startMillis, r.forwardedFor != null ? r.forwardedFor : r.client, r.listener,
                r.route, r.cluster, r.node, r.method, r.target, r.protocol, r.status, r.termination, r.retries,
                r.bytesIn, r.bytesOut, r.totalMillis, r.requestId);
    }
}
