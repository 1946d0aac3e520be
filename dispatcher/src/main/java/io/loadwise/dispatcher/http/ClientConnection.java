package io.loadwise.dispatcher.http;

import io.netty.channel.Channel;
import io.netty.handler.codec.http.FullHttpResponse;

/**
 * What an {@link Exchange} may do to the client connection it serves, and nothing more: the
 * connection ({@link FrontendHandler}) drives the exchange, and the exchange reaches back only through
 * this narrow interface, never into the handler's state.
 */
interface ClientConnection {

    /** Reasons to stop reading from the client; reading resumes when none is left. */
    int PAUSE_CONNECT = 1;
    int PAUSE_BACKPRESSURE = 2;
    int PAUSE_QUEUE = 4;
    int PAUSE_UPGRADE = 8;

    Channel channel();

    /** The node pools of this connection's event loop. */
    BackendPools pools();

    String clientIp();

    /** This hop's forwarding header values for the connection's requests. */
    ForwardingHeaders forwarding();

    /** The client is one of the cluster's trusted proxies (its forwarding headers are kept). */
    boolean trustedSource();

    void pause(int reason);

    void resume(int reasons);

    /** Whether the client's read batch is still being delivered (flushes wait for its end). */
    boolean reading();

    /** Goes on with what the client pipelined meanwhile, now that the exchange can take it. */
    void drain();

    /** Makes sure the connection's timer fires by {@code dueNanos}. */
    void deadlineBy(long dueNanos);

    /** The exchange ended at {@code nanos}: the connection is idle, or reading the next head, from then. */
    void exchangeEnded(long nanos);

    /** Writes an error response and keeps the connection for the next request. */
    void respondAndContinue(FullHttpResponse response);

    /** Writes {@code last} (a final response, or an empty buffer) and closes after it. */
    void closeAfter(Object last);

    /** Closes after what was written so far. */
    void closeAfterResponse();

    /** Closes at once: a response was cut off, or the client is gone. */
    void abort();

    /** The connection becomes a byte tunnel (a 101 went out); HTTP handling leaves its pipeline. */
    void handOver();
}
