package io.loadwise.dispatcher.http;

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

    void pause(int reason);

    void resume(int reasons);

    /**
     * Goes on with what the client pipelined meanwhile, now that the exchange can take it, and flushes what
     * went to the node unless the client's read batch is still being delivered (its end flushes then).
     */
    void drain();

    /** Makes sure the connection's timer fires by {@code dueNanos}. */
    void deadlineBy(long dueNanos);

    /** The exchange ended at {@code nanos}: the connection is idle, or reading the next head, from then. */
    void exchangeEnded(long nanos);

    /**
     * Writes {@code last} (a final response, or an empty buffer after a streamed one); then closes when
     * {@code close}, or else goes on with the next request.
     */
    void answer(Object last, boolean close);

    /** Closes at once: a response was cut off, or the client is gone. */
    void abort();

    /** The connection becomes a byte tunnel (a 101 went out); HTTP handling leaves its pipeline. */
    void handOver();
}
