package io.loadwise.dispatcher.net;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import java.util.ArrayList;
import java.util.List;

/**
 * The server-channel handlers of a listener, installed with {@code ServerBootstrap.handler(...)}: an
 * {@link AcceptBackoff} for accept failures, then an {@link AcceptGate} holding the listener to its own
 * connection limit and the dispatcher's. Both stop and restart accepting through one
 * {@link AcceptPauses}, so neither resumes while the other still wants the listener paused.
 */
public final class AcceptGuard {

    private AcceptGuard() {
    }

    /**
     * @param listener the listener's name for log lines, e.g. {@code "cluster web"}
     * @param ownMax the listener's own limit; 0 for none
     * @param dispatcherLimit the limit shared by every listener of the dispatcher; {@code null} for none
     * @param onRejected called for each connection closed at once because a limit was full
     */
    public static ChannelHandler of(String listener, int ownMax, ConnectionLimit dispatcherLimit,
            Runnable onRejected) {
        List<ConnectionLimit> list = new ArrayList<>(2);
        if (ownMax > 0) {
            list.add(new ConnectionLimit(listener, ownMax));
        }
        if (dispatcherLimit != null) {
            list.add(dispatcherLimit);
        }
        ConnectionLimit[] limits = list.toArray(new ConnectionLimit[0]);
        return new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel server) {
                AcceptPauses pauses = new AcceptPauses(server);
                server.pipeline().addLast("acceptBackoff", new AcceptBackoff(listener, pauses));
                if (limits.length > 0) {
                    server.pipeline().addLast("acceptGate", new AcceptGate(listener, limits, onRejected, pauses));
                }
            }
        };
    }
}
