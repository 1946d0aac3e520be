package io.loadwise.dispatcher.net;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import java.net.InetSocketAddress;
import java.util.function.Consumer;

/**
 * A listener's bound socket and who sets up the connections it accepts. A reload that rebuilds a cluster
 * on the same address hands the socket to the new listener ({@link #redirect}) instead of closing and
 * binding again: the socket never closes, so no client is refused and nothing in the kernel's accept queue
 * is lost (what HAProxy's seamless reload achieves by passing the descriptor to its new process).
 *
 * <p>The server channel's own handlers (the accept guard with the first listener's connection limit) stay
 * with the socket; only the set-up of each new connection moves.
 */
public final class ListenSocket {

    private volatile Consumer<Channel> initializer;
    private volatile Channel channel;

    /** @param initializer sets up each accepted connection until {@link #redirect} */
    public ListenSocket(Consumer<Channel> initializer) {
        this.initializer = initializer;
    }

    /** For {@code ServerBootstrap.childHandler}: sets up each connection with the current initializer. */
    public ChannelHandler childHandler() {
        return new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                initializer.accept(ch);
            }
        };
    }

    /** Records the server channel once bound. */
    public void bound(Channel serverChannel) {
        this.channel = serverChannel;
    }

    /** From now on accepted connections are set up by {@code next}. */
    public void redirect(Consumer<Channel> next) {
        this.initializer = next;
    }

    /** The bound address, or {@code null} before binding or after {@link #close}. */
    public InetSocketAddress address() {
        Channel ch = channel;
        return ch == null ? null : (InetSocketAddress) ch.localAddress();
    }

    /** Closes the socket; blocks until it is closed. */
    public void close() {
        Channel ch = channel;
        if (ch != null) {
            ch.close().syncUninterruptibly();
            channel = null;
        }
    }
}
