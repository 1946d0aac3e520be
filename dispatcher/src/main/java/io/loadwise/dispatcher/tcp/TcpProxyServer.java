package io.loadwise.dispatcher.tcp;

import io.loadwise.dispatcher.net.NodeAddress;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.net.AcceptGuard;
import io.loadwise.dispatcher.net.ClusterListener;
import io.loadwise.dispatcher.net.ConnectionLimit;
import io.loadwise.dispatcher.net.ListenSocket;
import io.loadwise.dispatcher.net.ProxyHeaderGate;
import io.loadwise.dispatcher.net.ProxyProtocolStats;
import io.loadwise.dispatcher.net.Transport;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.handler.timeout.IdleStateHandler;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
    /** Reads PROXY headers in front of the tunnel; null when the cluster takes none. */
    private final ProxyHeaderGate proxyHeaders;
    /** The listening socket; {@code null} before start and after it was closed or handed over. */
    private volatile ListenSocket socket;
    /** How tunnels of each event loop reach their nodes; made on first use, then used only on that loop. */
    private final Map<EventLoop, TunnelConnector> connectors = new ConcurrentHashMap<>();

    public TcpProxyServer(VirtualCluster cluster, Transport transport) {
        this(cluster, transport, null);
    }

    /** @param dispatcherLimit client connections of every listener of the dispatcher; {@code null}: none */
    public TcpProxyServer(VirtualCluster cluster, Transport transport, ConnectionLimit dispatcherLimit) {
        this.cluster = cluster;
        this.transport = transport;
        this.dispatcherLimit = dispatcherLimit;
        this.proxyHeaders = cluster.config().proxyProtocol() == null ? null : new ProxyHeaderGate(
                "cluster " + cluster.name(), cluster.config().proxyProtocol().settings(), new ProxyProtocolStats());
    }

    @Override
    public InetSocketAddress start() throws IOException {
        InetSocketAddress listen = NodeAddress.parseListen(cluster.config().listen());
        ListenSocket owned = new ListenSocket(this::initClient);
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
                .childHandler(owned.childHandler());
        ChannelFuture bound = bootstrap.bind(listen.getHostString(), listen.getPort()).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            throw new IOException("cluster " + cluster.name() + ": cannot listen on " + cluster.config().listen() + ": "
                    + bound.cause().getMessage(), bound.cause());
        }
        owned.bound(bound.channel());
        socket = owned;
        InetSocketAddress actual = boundAddress();
        log.info("cluster {}: tcp listening on {} with policy {} over {} nodes", cluster.name(), actual,
                cluster.policy().id(), cluster.nodes().size());
        return actual;
    }

    private void initClient(Channel ch) {
        long idleMillis = cluster.config().idleTimeoutMsOrDefault();
        ch.pipeline().addLast("idle", new IdleStateHandler(0, 0, idleMillis, TimeUnit.MILLISECONDS));
        ch.pipeline().addLast("idleCloser", IdleCloser.INSTANCE);
        ch.pipeline().addLast("opener", new TunnelOpener(cluster, connectors.computeIfAbsent(ch.eventLoop(),
                loop -> new TunnelConnector(loop, transport.socketChannelClass(),
                        cluster.config().connectTimeoutMsOrDefault()))));
        if (proxyHeaders != null) {
            proxyHeaders.install(ch);
        }
    }

    /** PROXY header counts, or null when the cluster reads none. */
    public ProxyProtocolStats proxyProtocolStats() {
        return proxyHeaders == null ? null : proxyHeaders.stats();
    }

    /** Tunnels already open stay with the cluster they were opened on until either side closes them. */
    @Override
    public InetSocketAddress takeOver(ClusterListener previous) throws IOException {
        ListenSocket inherited = previous instanceof TcpProxyServer tcp ? tcp.releaseSocket() : null;
        if (inherited == null) {
            throw new IOException("cluster " + cluster.name() + ": no tcp listener to take over");
        }
        inherited.redirect(this::initClient);
        socket = inherited;
        log.info("cluster {}: tcp took over the listener on {} with policy {} over {} nodes", cluster.name(),
                inherited.address(), cluster.policy().id(), cluster.nodes().size());
        return inherited.address();
    }

    private synchronized ListenSocket releaseSocket() {
        ListenSocket released = socket;
        socket = null;
        return released;
    }

    @Override
    public InetSocketAddress boundAddress() {
        ListenSocket owned = socket;
        return owned == null ? null : owned.address();
    }

    @Override
    public void close() {
        ListenSocket owned = releaseSocket();
        if (owned != null) {
            InetSocketAddress address = owned.address();
            owned.close();
            log.info("cluster {}: tcp listener on {} closed", cluster.name(), address);
        }
    }
}
