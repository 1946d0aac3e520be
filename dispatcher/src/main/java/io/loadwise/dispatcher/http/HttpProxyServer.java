package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.http.codec.ClientCodec;
import io.loadwise.dispatcher.http.codec.RequestDecoder;
import io.loadwise.dispatcher.net.AcceptGuard;
import io.loadwise.dispatcher.net.AddressBlock;
import io.loadwise.dispatcher.net.ClusterListener;
import io.loadwise.dispatcher.net.ConnectionLimit;
import io.loadwise.dispatcher.net.ListenSocket;
import io.loadwise.dispatcher.net.NodeAddress;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.tls.NodeTls;
import io.loadwise.dispatcher.tls.ServerTls;
import io.loadwise.dispatcher.tls.TlsFileException;
import io.loadwise.dispatcher.tls.TlsListener;
import io.loadwise.dispatcher.tls.TlsProviders;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoop;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
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
 * <p>Client pipeline: HTTP codec (which also counts the bytes and tracks the drain of hot reload),
 * {@link FrontendHandler}; with TLS, a bytes meter and the TLS handler before the codec. Backend
 * connections are pooled per event loop and node ({@link BackendPools}).
 */
public final class HttpProxyServer implements ClusterListener {

    private static final Logger log = LoggerFactory.getLogger(HttpProxyServer.class);
    static final String FRONTEND = "frontend";
    /** The HTTP/1.1 codec's name in the client pipeline. */
    public static final String CODEC = "codec";

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
    /** The listening socket; {@code null} before start and after it was closed or handed over. */
    private volatile ListenSocket socket;
    private volatile InetSocketAddress bound;
    private final DrainingConnections connections = new DrainingConnections();
    /** TLS termination; {@code null} on a clear-text listener. */
    private volatile TlsListener tls;
    /** Makes the HTTP/2 side; {@code null}: this listener speaks HTTP/1.1 only. */
    private final Http2Support.Factory http2Factory;
    /** HTTP/2 to clients; {@code null} when {@code http2.enabled} is false or there is no factory. */
    private volatile Http2Support http2;
    /** The route stage of each request head; volatile: a route table may be swapped while requests run. */
    private volatile RouteStage routes;
    /** The filter chain of each request and response head; none by default. */
    private volatile HttpFilters filters = HttpFilters.NONE;
    /** TLS to the nodes; {@code null} for clear text. */
    private volatile NodeTls nodeTls;

    /** A listener of HTTP/1.1 only (no HTTP/2, whatever {@code http2.enabled} says), with no dispatcher-wide limit. */
    public HttpProxyServer(VirtualCluster cluster, Transport transport) {
        this(cluster, transport, null, null);
    }

    /**
     * @param dispatcherLimit client connections of every listener of the dispatcher; {@code null}: none
     * @param http2 makes the HTTP/2 side when the cluster enables it; {@code null}: HTTP/1.1 only
     */
    public HttpProxyServer(VirtualCluster cluster, Transport transport, ConnectionLimit dispatcherLimit,
            Http2Support.Factory http2) {
        this.dispatcherLimit = dispatcherLimit;
        this.http2Factory = http2;
        this.routes = RouteStage.toCluster(cluster);
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
        InetSocketAddress address = NodeAddress.parseListen(config.listen());
        InetSocketAddress resolved = new InetSocketAddress(address.getHostString(), address.getPort());
        prepareProtocols(config);
        TlsListener tlsListener = tls;
        ListenSocket listen = new ListenSocket(this::initClient);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(transport.acceptor(), transport.workers())
                .channel(transport.serverChannelClass())
                .option(ChannelOption.SO_BACKLOG, 1024)
                .handler(AcceptGuard.of("cluster " + cluster.name(), config.maxClientConnectionsOrDefault(),
                        dispatcherLimit, cluster.counters()::connectionRejected))
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, BackendPools.WATER_MARK)
                .childHandler(listen.childHandler());
        ChannelFuture bind = bootstrap.bind(resolved).awaitUninterruptibly();
        if (!bind.isSuccess()) {
            closeTls();
            throw new IOException("cluster " + cluster.name() + ": cannot listen on " + config.listen() + ": "
                    + bind.cause().getMessage(), bind.cause());
        }
        listen.bound(bind.channel());
        socket = listen;
        bound = listen.address();
        log.info("cluster {}: HTTP proxy listening on {} ({}, affinity {})", cluster.name(), bound,
                config.balanceOrDefault().id(), config.affinityOrDefault().id());
        if (tlsListener != null) {
            tlsListener.start();
        }
        return bound;
    }

    private void initClient(Channel ch) {
        TlsListener tlsListener = tls;
        if (tlsListener != null) {
            // bytes on the wire are the encrypted ones: counted before TLS, by a meter of their own
            ch.pipeline().addLast(TrafficMeter.NAME, new TrafficMeter(cluster.counters(), true));
            tlsListener.install(ch.pipeline());
        }
        // clear text: the codec counts the bytes and tracks the drain, so that messages cross fewer handlers
        ClientCodec codec = new ClientCodec(cluster.config().maxHeaderBytesOrDefault(),
                tlsListener == null ? cluster.counters() : null, connections);
        ch.pipeline().addLast(CODEC, codec);
        ch.pipeline().addLast(FRONTEND, new FrontendHandler(HttpProxyServer.this, codec.requestDecoder()));
        Http2Support h2 = http2;
        if (h2 != null) {
            h2.addDetectors(ch.pipeline());
        }
    }

    /** TLS termination, HTTP/2 and TLS to the nodes, as configured, before the listener takes connections. */
    private void prepareProtocols(ClusterConfig config) throws IOException {
        tls = config.tls() == null ? null : startTls(config);
        if (config.nodeTls() != null) {
            try {
                nodeTls = NodeTls.of(cluster.name(), config.nodeTls());
            } catch (TlsFileException e) {
                closeTls();
                throw new IOException("cluster " + cluster.name() + ": " + e.getMessage(), e);
            }
        }
        http2 = http2Factory != null && config.http2OrDefault().enabledOrDefault() ? http2Factory.create(this,
                config.http2OrDefault(), config.maxHeaderBytesOrDefault(), tls != null) : null;
    }

    private void closeTls() {
        TlsListener listener = tls;
        if (listener != null) {
            listener.close();
            tls = null;
        }
    }

    @Override
    public InetSocketAddress takeOver(ClusterListener previous) throws IOException {
        ListenSocket inherited = previous instanceof HttpProxyServer http ? http.releaseSocket() : null;
        if (inherited == null) {
            throw new IOException("cluster " + cluster.name() + ": no HTTP listener to take over");
        }
        prepareProtocols(cluster.config());
        inherited.redirect(this::initClient);
        if (tls != null) {
            tls.start();
        }
        socket = inherited;
        bound = inherited.address();
        log.info("cluster {}: HTTP proxy took over the listener on {} ({}, affinity {})", cluster.name(), bound,
                cluster.config().balanceOrDefault().id(), cluster.config().affinityOrDefault().id());
        return bound;
    }

    private synchronized ListenSocket releaseSocket() {
        ListenSocket released = socket;
        socket = null;
        return released;
    }

    private TlsListener startTls(ClusterConfig config) throws IOException {
        try {
            return new TlsListener("cluster " + cluster.name(), "cluster " + cluster.name() + ": tls", config.tls(),
                    TlsProviders.preferred(), ServerTls.alpnFor(config.http2OrDefault().enabledOrDefault()),
                    config.headerTimeoutMsOrDefault());
        } catch (TlsFileException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /**
     * The connection leaves HTTP/1.1 for HTTP/2 before any request was served on it: the HTTP/1.1
     * handlers leave its pipeline, and an idle detector watches it instead (see {@link FrontendHandler#handOver}).
     */
    public void leaveHttp1(ChannelPipeline pipeline) {
        FrontendHandler frontend = (FrontendHandler) pipeline.get(FRONTEND);
        if (frontend != null) {
            frontend.handOver();
            pipeline.remove(frontend);
        }
        // an HTTP/2 connection drains by GOAWAY (close): leaving, the codec leaves the drain too
        if (pipeline.get(CODEC) instanceof ClientCodec codec) {
            TrafficMeter.replaceCodec(pipeline, codec, codec.wireCounts(), true);
        }
    }

    /**
     * The handler that serves one HTTP/2 stream as an HTTP/1.1 client connection of one request: the same
     * exchange, pools, policies, affinity, header rewriting and counters. (An HTTP/2 connection counts as
     * one client connection, and each open stream as one more.)
     */
    public ChannelHandler newStreamFrontend() {
        return new FrontendHandler(this, new RequestDecoder(cluster.config().maxHeaderBytesOrDefault(),
                new ArrayDeque<>(1)));
    }

    /** The listener terminates TLS: nodes are told the client spoke https. */
    boolean secure() {
        return cluster.config().tls() != null;
    }

    /** The listener's TLS (certificates in use, provider); {@code null} on a clear-text listener. */
    public TlsListener tls() {
        return tls;
    }

    @Override
    public InetSocketAddress boundAddress() {
        return bound;
    }

    /** Stops accepting (unless the socket was handed over) and closes each connection after its next response. */
    @Override
    public void drain() {
        close();
        connections.drain();
    }

    @Override
    public void close() {
        ListenSocket owned = releaseSocket();
        if (owned != null) {
            owned.close();
        }
        Http2Support h2 = http2;
        if (h2 != null) {
            h2.close(); // GOAWAY on every HTTP/2 connection
        }
        TlsListener listener = tls;
        if (listener != null) {
            listener.close();
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

    /** The route stage of every request from now on; by default, all to this listener's cluster. */
    public void setRoutes(RouteStage routes) {
        this.routes = routes;
    }

    RouteStage routes() {
        return routes;
    }

    /** The filter chain of every request from now on; by default, none. */
    public void setFilters(HttpFilters filters) {
        this.filters = filters;
    }

    HttpFilters filters() {
        return filters;
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
                : pools.computeIfAbsent(loop, l -> new BackendPools(l, cluster, transport, nodeAddresses, connectors,
                        nodeTls));
    }
}
