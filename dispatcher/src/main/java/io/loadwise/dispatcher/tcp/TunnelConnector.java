package io.loadwise.dispatcher.tcp;

import io.loadwise.dispatcher.acquire.NodeConnector;
import io.loadwise.dispatcher.cluster.NodeState;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.util.AttributeKey;

/**
 * L4's way to a node for {@code NodeAcquisition}: a fresh connection per tunnel (nothing is pooled: a tunnel
 * owns its node connection for its whole life), opened by one bootstrap per event loop. The connection comes
 * with an empty pipeline and AUTO_READ off; the tunnel adds its {@link Relay} once it opens.
 */
final class TunnelConnector implements NodeConnector {

    private static final AttributeKey<NodeState> NODE = AttributeKey.valueOf(TunnelConnector.class, "node");
    /** Sharable, as every {@link ChannelInitializer} is: the relay is added after the connect, not here. */
    private static final ChannelInitializer<Channel> NO_HANDLERS = new ChannelInitializer<>() {
        @Override
        protected void initChannel(Channel ch) {
        }
    };

    private final Bootstrap bootstrap;

    TunnelConnector(EventLoop loop, Class<? extends Channel> channelClass, int connectTimeoutMs) {
        this.bootstrap = new Bootstrap()
                .group(loop)
                .channel(channelClass)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMs)
                .option(ChannelOption.AUTO_READ, false)
                .option(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(NO_HANDLERS);
    }

    @Override
    public void open(NodeState node, Waiter waiter) {
        ChannelFuture connect = bootstrap.connect(node.address());
        connect.channel().attr(NODE).set(node);
        connect.addListener((ChannelFuture done) -> {
            if (done.isSuccess()) {
                node.markConnectSuccess();
                waiter.onBackendReady(done.channel());
            } else {
                waiter.onBackendFailed(done.cause());
            }
        });
    }

    /** A connect in flight completes anyway; the acquisition gives its connection back ({@link #giveBack}). */
    @Override
    public void cancel(NodeState node, Waiter waiter) {
    }

    @Override
    public void giveBack(Channel channel) {
        channel.close();
    }

    @Override
    public NodeState nodeOf(Channel channel) {
        return channel.attr(NODE).get();
    }
}
