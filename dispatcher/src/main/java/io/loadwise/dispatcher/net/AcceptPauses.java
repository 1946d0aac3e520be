package io.loadwise.dispatcher.net;

import io.netty.channel.Channel;

/**
 * Why a listening channel is not accepting; it accepts again when no reason is left. Stopping is
 * {@code autoRead(false)} on the server channel: new connections then wait in the kernel's backlog
 * instead of taking a file descriptor each. Used only on the server channel's event loop.
 */
final class AcceptPauses {

    /** A connection limit is full ({@link AcceptGate}). */
    static final int LIMIT = 1;
    /** Accepting failed, typically out of file descriptors ({@link AcceptBackoff}). */
    static final int BACKOFF = 2;

    private final Channel server;
    private int reasons;

    AcceptPauses(Channel server) {
        this.server = server;
    }

    void pause(int reason) {
        if (reasons == 0) {
            server.config().setAutoRead(false);
        }
        reasons |= reason;
    }

    void resume(int reason) {
        if ((reasons & reason) == 0) {
            return;
        }
        reasons &= ~reason;
        if (reasons == 0) {
            server.config().setAutoRead(true);
        }
    }

    boolean paused(int reason) {
        return (reasons & reason) != 0;
    }
}
