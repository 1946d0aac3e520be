package io.loadwise.dispatcher.logging;

/**
 * What the access log says of one finished HTTP request or TCP tunnel. The event loop fills one per request,
 * only when the access log is on, with references it already holds (no formatting there); the writer thread
 * formats it. A {@code null} text, or a negative number, is unknown and written as {@code -} ({@code null} in
 * JSON).
 */
public final class AccessRecord {

    /** When the request (or tunnel) began, epoch milliseconds. */
    public long startMillis;
    public String client;
    public int clientPort = -1;
    public String cluster;
    public String node;
    /** {@code null} for a TCP tunnel. */
    public String method;
    public String target;
    /** {@code HTTP/1.1}, {@code HTTP/1.0}, {@code h2} or {@code tcp}. */
    public String protocol;
    public int status = -1;
    public long bytesIn = -1;
    public long bytesOut = -1;
    public String referer;
    public String userAgent;
    /** The request's {@code X-Request-Id}, generated or the client's. */
    public String requestId;
    /** The request's {@code traceparent} as received; the writer takes the trace id out ({@link TraceParent}). */
    public String traceparent;
    /** Request head sent to the node → its final response head, milliseconds ({@code Tr}). */
    public long nodeResponseMillis = -1;
    /** Total time, milliseconds. */
    public long totalMillis = -1;

    public boolean tcp() {
        return "tcp".equals(protocol);
    }
}
