package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.http.codec.ClientCodec;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The client connections of one HTTP listener, so that a reload can retire them gracefully: once
 * {@link #drain()} was called, the response to the last request a connection received carries
 * {@code Connection: close} and the connection closes after it. A request in flight therefore finishes, a
 * client that keeps sending gets its answer and reconnects (to the listener that took the socket over), and
 * an idle connection serves at most one more request or ends at its idle timeout. Nothing is cut, so no
 * client request fails because of a reload.
 *
 * <p>A connection upgraded to a tunnel (a {@code 101} went out) is left to run until either side closes it.
 * The per-connection part lives in the connection's {@link ClientCodec}, which sees request heads going in
 * and response parts going out anyway: a separate handler would add two pipeline hops to every message.
 */
final class DrainingConnections implements ClientCodec.Drains {

    private final Set<ClientCodec> open = ConcurrentHashMap.newKeySet();
    private volatile boolean draining;

    /** Every connection, now and later, closes after the response to the last request it received. */
    void drain() {
        draining = true;
        for (ClientCodec codec : open) {
            codec.channel().eventLoop().execute(codec::startDraining);
        }
    }

    @Override
    public boolean opened(ClientCodec codec) {
        open.add(codec);
        return draining;
    }

    @Override
    public void closed(ClientCodec codec) {
        open.remove(codec);
    }

    /** Connections still open (tests). */
    int openConnections() {
        return open.size();
    }
}
