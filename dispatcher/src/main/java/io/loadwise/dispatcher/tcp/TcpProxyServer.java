package io.loadwise.dispatcher.tcp;

import io.loadwise.dispatcher.cluster.NodeAddress;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.net.AcceptGuard;
import io.loadwise.dispatcher.net.ClusterListener;
import io.loadwise.dispatcher.net.ConnectionLimit;
import io.loadwise.dispatcher.net.Transport;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.timeout.IdleStateHandler;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * L4 listener of a TCP cluster: every accepted connection becomes a tunnel to one node (TDCR-03). Bytes
 * pass through untouched, so TLS is end-to-end between client and node (TDR-02).
 */
public final class TcpProxyServer implements ClusterListener {

    private static final Logger log = LoggerFactory.getLogger(TcpProxyServer.class);

    private final VirtualCluster cluster;
    private final Transport transport;
    private final ConnectionLimit dispatcherLimit;
    private volatile Channel serverChannel;

    public TcpProxyServer(VirtualCluster cluster, Transport transport) {
        this(cluster, transport, null);
    }

    /** @param dispatcherLimit client connections of every listener of the dispatcher; {@code null}: none */
    public TcpProxyServer(VirtualCluster cluster, Transport transport, ConnectionLimit dispatcherLimit) {
        this.cluster = cluster;
        this.transport = transport;
        this.dispatcherLimit = dispatcherLimit;
    }

    @Override
    public InetSocketAddress start() throws IOException {
        InetSocketAddress listen = NodeAddress.parseListen(cluster.config().listen());
        long idleMillis = cluster.config().idleTimeoutMsOrDefault();
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(transport.acceptor(), transport.workers())
                .channel(transport.serverChannelClass())
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                .handler(AcceptGuard.of("cluster " + cluster.name(), cluster.config().maxClientConnectionsOrDefault(),
                        dispatcherLimit, cluster.counters()::connectionRejected))
                .childOption(ChannelOption.AUTO_READ, false)
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast("idle", new IdleStateHandler(0, 0, idleMillis, TimeUnit.MILLISECONDS));
                        ch.pipeline().addLast("idleCloser", IdleCloser.INSTANCE);
                        ch.pipeline().addLast("opener", new TunnelOpener(cluster, transport));
                    }
                });
        ChannelFuture bound = bootstrap.bind(listen.getHostString(), listen.getPort()).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            throw new IOException("cluster " + cluster.name() + ": cannot listen on " + cluster.config().listen() + ": "
                    + bound.cause().getMessage(), bound.cause());
        }
        serverChannel = bound.channel();
        InetSocketAddress actual = boundAddress();
        log.info("cluster {}: tcp listening on {} with policy {} over {} nodes", cluster.name(), actual,
                cluster.policy().id(), cluster.nodes().size());
        return actual;
    }

    @Override
    public InetSocketAddress boundAddress() {
        Channel channel = serverChannel;
        return channel == null ? null : (InetSocketAddress) channel.localAddress();
    }

    @Override
    public void close() {
        Channel channel = serverChannel;
        if (channel != null) {
            channel.close().syncUninterruptibly();
            log.info("cluster {}: tcp listener on {} closed", cluster.name(), channel.localAddress());
        }
    }
}
