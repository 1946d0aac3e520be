package io.loadwise.dispatcher.logging;

/**
 * What the access log says of one finished HTTP request or TCP tunnel. The event loop fills one per request,
 * only when the access log is on or the console keeps recent requests ({@link AccessLog#enabled()}), with
 * references it already holds (no formatting there); the writer thread formats it. A {@code null} text, or a
 * negative number, is unknown and written as {@code -} ({@code null} in JSON).
 */
public final class AccessRecord {

    /** When the request (or tunnel) began, epoch milliseconds. */
    public long startMillis;
    public String client;
    public int clientPort = -1;
    /** The client's address as a trusted proxy named it ({@code X-Forwarded-For}); the peer's otherwise. */
    public String forwardedFor;
    /** The listener's name: a {@code listeners[]} entry's, or the cluster's whose own {@code listen} it is. */
    public String listener;
    /** The route's name ({@code listener/index} when it has none); {@code null} when no route took the request. */
    public String route;
    public String cluster;
    public String policy;
    public String node;
    /** {@code null} for a TCP tunnel. */
    public String method;
    public String target;
    /** {@code HTTP/1.1}, {@code HTTP/1.0}, {@code h2} or {@code tcp}. */
    public String protocol;
    /** {@code TLSv1.3}, {@code TLSv1.2}, ...; {@code null} in clear text. */
    public String tlsVersion;
    /** The host name of the client's TLS handshake (SNI). */
    public String sni;
    /** The protocol ALPN chose ({@code h2}, {@code http/1.1}). */
    public String alpn;
    public int status = -1;
    /** Two letters ({@code io.loadwise.dispatcher.metrics.Termination}): who ended the request, in which phase. */
    public String termination;
    /** Times the request was sent again to another node. */
    public int retries = -1;
    public long bytesIn = -1;
    public long bytesOut = -1;
    public String referer;
    public String userAgent;
    /** The request's {@code X-Request-Id}, generated or the client's. */
    public String requestId;
    /** The request's {@code traceparent} as received; the writer takes the trace id out ({@link TraceParent}). */
    public String traceparent;
    /** Connection accepted, or the previous request ended → this request's head complete, ms ({@code Th}). */
    public long headMillis = -1;
    /** Waited in the cluster's queue, ms ({@code Tw}). */
    public long queueMillis = -1;
    /** Waited for the node connection, ms ({@code Tc}); 0 for a pooled one. */
    public long connectMillis = -1;
    /** Request head sent to the node → its final response head, milliseconds ({@code Tr}). */
    public long nodeResponseMillis = -1;
    /** Total time, milliseconds. */
    public long totalMillis = -1;

    public boolean tcp() {
        return "tcp".equals(protocol);
    }
}
