package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.cluster.NodeAddress;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.http.codec.ClientCodec;
import io.loadwise.dispatcher.net.AddressBlock;
import io.loadwise.dispatcher.net.AcceptGuard;
import io.loadwise.dispatcher.net.ClusterListener;
import io.loadwise.dispatcher.net.ConnectionLimit;
import io.loadwise.dispatcher.net.Transport;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The L7 side of one virtual cluster: an HTTP/1.1 reverse proxy choosing a node per request (or per
 * client connection, {@code balance: per-connection}), with keep-alive on both sides, streamed bodies,
 * {@code Upgrade} tunnelling, cookie affinity and the piggybacked load-report hook.
 *
 * <p>{@code Expect: 100-continue} is forwarded to the node and its {@code 100} relayed, so a node that
 * rejects the request does so before the client sends the body.
 *
 * <p>Client pipeline: bytes meter, HTTP codec, {@link FrontendHandler}. Backend
 * connections are pooled per event loop and node ({@link BackendPools}).
 */
public final class HttpProxyServer implements ClusterListener {

    private static final Logger log = LoggerFactory.getLogger(HttpProxyServer.class);
    static final String FRONTEND = "frontend";

    private final VirtualCluster cluster;
    private final Transport transport;
    private final SessionAffinity sessionAffinity;
    private final AffinityCounters affinityCounters = new AffinityCounters();
    private final InetSocketAddress[] nodeAddresses;
    private final List<AddressBlock> trustedProxies;
    private final ConnectionLimit dispatcherLimit;
    private final Map<EventLoop, BackendPools> pools = new ConcurrentHashMap<>();
    private volatile LoadReportSink loadReportSink = LoadReportSink.NONE;
    /** How node connections are opened; {@code null}: sockets. Tests use embedded channels. */
    private volatile Function<NodeState, NodePool.Connector> connectors;
    private volatile Channel serverChannel;
    private volatile InetSocketAddress bound;

    public HttpProxyServer(VirtualCluster cluster, Transport transport) {
        this(cluster, transport, null);
    }

    /** @param dispatcherLimit client connections of every listener of the dispatcher; {@code null}: none */
    public HttpProxyServer(VirtualCluster cluster, Transport transport, ConnectionLimit dispatcherLimit) {
        this.dispatcherLimit = dispatcherLimit;
        this.cluster = cluster;
        this.transport = transport;
        this.sessionAffinity = new SessionAffinity(cluster);
        this.trustedProxies = AddressBlock.parseAll(cluster.config().trustedProxiesOrEmpty());
        List<NodeState> nodes = cluster.nodes();
        this.nodeAddresses = new InetSocketAddress[nodes.size()];
        for (NodeState node : nodes) {
            InetSocketAddress address = node.address();
            // Resolve once here, off the event loops; an unresolvable name is left to connect time.
            nodeAddresses[node.index()] = address.isUnresolved()
                    ? new InetSocketAddress(address.getHostString(), address.getPort()) : address;
        }
    }

    @Override
    public InetSocketAddress start() throws IOException {
        ClusterConfig config = cluster.config();
        InetSocketAddress listen = NodeAddress.parseListen(config.listen());
        InetSocketAddress resolved = new InetSocketAddress(listen.getHostString(), listen.getPort());
        int maxHeadBytes = config.maxHeaderBytesOrDefault();
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(transport.acceptor(), transport.workers())
                .channel(transport.serverChannelClass())
                .option(ChannelOption.SO_BACKLOG, 1024)
                .handler(AcceptGuard.of("cluster " + cluster.name(), config.maxClientConnectionsOrDefault(),
                        dispatcherLimit, cluster.counters()::connectionRejected))
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, BackendPools.WATER_MARK)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast("meter", new TrafficMeter(cluster.counters(), true));
                        ClientCodec codec = new ClientCodec(maxHeadBytes);
                        ch.pipeline().addLast("codec", codec);
                        ch.pipeline().addLast(FRONTEND, new FrontendHandler(HttpProxyServer.this, codec.requestDecoder()));
                    }
                });
        ChannelFuture bind = bootstrap.bind(resolved).awaitUninterruptibly();
        if (!bind.isSuccess()) {
            throw new IOException("cluster " + cluster.name() + ": cannot listen on " + config.listen() + ": "
                    + bind.cause().getMessage(), bind.cause());
        }
        serverChannel = bind.channel();
        bound = (InetSocketAddress) serverChannel.localAddress();
        log.info("cluster {}: HTTP proxy listening on {} ({}, affinity {})", cluster.name(), bound,
                config.balanceOrDefault().id(), config.affinityOrDefault().id());
        return bound;
    }

    @Override
    public InetSocketAddress boundAddress() {
        return bound;
    }

    @Override
    public void close() {
        Channel channel = serverChannel;
        if (channel != null) {
            channel.close().syncUninterruptibly();
            serverChannel = null;
        }
        for (Map.Entry<EventLoop, BackendPools> entry : pools.entrySet()) {
            if (!entry.getKey().isShuttingDown()) {
                entry.getKey().execute(entry.getValue()::closeIdle);
            }
        }
    }

    public VirtualCluster cluster() {
        return cluster;
    }

    /** Session-affinity outcomes, for the REST API. */
    public AffinityCounters affinityCounters() {
        return affinityCounters;
    }

    /** Where piggybacked {@code endpoint-load-metrics} headers go; a no-op until set. */
    public void setLoadReportSink(LoadReportSink sink) {
        this.loadReportSink = sink == null ? LoadReportSink.NONE : sink;
    }

    LoadReportSink loadReportSink() {
        return loadReportSink;
    }

    /** Opens node connections with {@code connectors} instead of sockets (tests on embedded channels). */
    void useConnectors(Function<NodeState, NodePool.Connector> connectors) {
        this.connectors = connectors;
    }

    /** Whether a client at {@code address} is a proxy whose forwarding headers are kept and appended to. */
    boolean trusts(java.net.InetAddress address) {
        return address != null && !trustedProxies.isEmpty() && AddressBlock.anyContains(trustedProxies, address);
    }

    SessionAffinity sessionAffinity() {
        return sessionAffinity;
    }

    /** The node pools of {@code loop}; created on first use, then used only on that loop. */
    BackendPools poolsFor(EventLoop loop) {
        BackendPools existing = pools.get(loop);
        return existing != null ? existing
                : pools.computeIfAbsent(loop, l -> new BackendPools(l, cluster, transport, nodeAddresses, connectors));
    }
}
