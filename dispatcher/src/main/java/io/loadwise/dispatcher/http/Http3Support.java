package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.config.Http3Config;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * HTTP/3 over QUIC as the listener sees it: a UDP socket on the listener's own port whose request streams are each
 * served by one of the listener's stream frontends ({@link HttpListener#newStreamFrontend()}), as an h2 stream is.
 * Implemented by the {@code http3} package, which builds on this one; whoever makes the listener passes the
 * implementation in ({@code runtime}), so {@code http} never depends on {@code http3}.
 */
public interface Http3Support {

    /** Makes the HTTP/3 side of {@code listener}, when its {@code http3.enabled}. */
    @FunctionalInterface
    interface Factory {
        Http3Support create(HttpListener listener, Http3Config config);
    }

    /** Binds the UDP socket on {@code address} (the listener's TCP address, same host and port). */
    void start(InetSocketAddress address) throws IOException;

    /**
     * Serves on the UDP socket of {@code previous} (the same address), which stops owning it. Returns what now
     * serves: {@code previous} itself, now on behalf of this listener, when its QUIC settings are the same (its
     * connections go on); else this, once {@code previous} closed.
     */
    Http3Support takeOver(Http3Support previous, HttpListener owner, InetSocketAddress address) throws IOException;

    /**
     * Closes gracefully: GOAWAY on every QUIC connection, each closed (H3_NO_ERROR) once the streams it had accepted
     * have ended, within a bound; then the UDP socket. Returns at once.
     */
    void close();

    /** What the QUIC side counted (connections, retries, streams, refusals). */
    io.loadwise.dispatcher.metrics.QuicCounts counts();

    /** The UDP address bound, or null. */
    InetSocketAddress boundAddress();
}
