package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.Affinity;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.NodeProtocol;
import io.loadwise.dispatcher.net.ClusterListener;
import io.loadwise.dispatcher.net.ConnectionLimit;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.tls.NodeTls;
import io.loadwise.dispatcher.tls.TlsFileException;
import io.loadwise.dispatcher.tls.TlsListener;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpRequest;
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
 * {@code Upgrade} tunnelling, cookie affinity and the piggybacked load-report hook. Node connections are
 * pooled per event loop and node ({@link BackendPools}).
 *
 * <p>{@code Expect: 100-continue} is forwarded to the node and its {@code 100} relayed, so a node that
 * rejects the request does so before the client sends the body.
 *
 * <p>A cluster with {@code listen} has a port of its own, an {@link HttpListener} whose every request comes
 * here; a cluster without one is only a target of {@code listeners[]} routes, and {@link #start} binds nothing.
 */
public final class HttpProxyServer implements ClusterListener {

    private static final Logger log = LoggerFactory.getLogger(HttpProxyServer.class);
    static final String FRONTEND = HttpListener.FRONTEND;
    /** The HTTP/1.1 codec's name in the client pipeline. */
    public static final String CODEC = HttpListener.CODEC;

    private final VirtualCluster cluster;
    private final Transport transport;
    private final SessionAffinity sessionAffinity;
    private final AffinityCounters affinityCounters = new AffinityCounters();
    private final InetSocketAddress[] nodeAddresses;
    private final Map<EventLoop, BackendPools> pools = new ConcurrentHashMap<>();
    /** The cluster's own port; {@code null} for a cluster that is only a route target. */
    private final HttpListener listener;
    private volatile LoadReportSink loadReportSink = LoadReportSink.NONE;
    /** How node connections are opened; {@code null}: sockets. Tests use embedded channels. */
    private volatile Function<NodeState, NodePool.Connector> connectors;
    /** The filter chain of each request and response head on the cluster's own port; none by default. */
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
        this(cluster, transport, dispatcherLimit, http2, null);
    }

    /** @param http3 makes the HTTP/3 side when the cluster enables it; {@code null}: none */
    public HttpProxyServer(VirtualCluster cluster, Transport transport, ConnectionLimit dispatcherLimit,
            Http2Support.Factory http2, Http3Support.Factory http3) {
        this.cluster = cluster;
        this.transport = transport;
        this.sessionAffinity = new SessionAffinity(cluster);
        List<NodeState> nodes = cluster.nodes();
        this.nodeAddresses = new InetSocketAddress[nodes.size()];
        for (NodeState node : nodes) {
            InetSocketAddress address = node.address();
            // Resolve once here, off the event loops; an unresolvable name is left to connect time.
            nodeAddresses[node.index()] = address.isUnresolved()
                    ? new InetSocketAddress(address.getHostString(), address.getPort()) : address;
        }
        this.listener = cluster.config().listen() == null ? null
                : new HttpListener(ListenerSettings.of(cluster.config()), cluster.counters(),
                        RouteStage.toCluster(this), this, transport, dispatcherLimit, http2, http3);
    }

    @Override
    public InetSocketAddress start() throws IOException {
        prepareNodeTls();
        if (listener == null) {
            log.info("cluster {}: HTTP route target (no listen of its own; {}, affinity {})", cluster.name(),
                    cluster.config().balanceOrDefault().id(), cluster.config().affinityOrDefault().id());
            return null;
        }
        InetSocketAddress bound = listener.start();
        log.info("cluster {}: HTTP proxy listening on {} ({}, affinity {})", cluster.name(), bound,
                cluster.config().balanceOrDefault().id(), cluster.config().affinityOrDefault().id());
        return bound;
    }

    private void prepareNodeTls() throws IOException {
        ClusterConfig config = cluster.config();
        if (config.nodeTls() != null) {
            try {
                nodeTls = NodeTls.of(cluster.name(), config.nodeTls(),
                        config.nodeProtocolOrDefault() == NodeProtocol.H2);
            } catch (TlsFileException e) {
                throw new IOException("cluster " + cluster.name() + ": " + e.getMessage(), e);
            }
        }
    }

    @Override
    public InetSocketAddress takeOver(ClusterListener previous) throws IOException {
        if (listener == null) {
            return start();
        }
        HttpListener inherited = previous instanceof HttpProxyServer http ? http.listener : null;
        if (inherited == null) {
            throw new IOException("cluster " + cluster.name() + ": no HTTP listener to take over");
        }
        prepareNodeTls();
        InetSocketAddress bound = listener.takeOver(inherited);
        log.info("cluster {}: HTTP proxy took over the listener on {} ({}, affinity {})", cluster.name(), bound,
                cluster.config().balanceOrDefault().id(), cluster.config().affinityOrDefault().id());
        return bound;
    }

    /** The cluster's own port, or {@code null} for a route target. */
    public HttpListener listener() {
        return listener;
    }

    /** The listener's TLS (certificates in use, provider); {@code null} on a clear-text or no listener. */
    public TlsListener tls() {
        return listener == null ? null : listener.tls();
    }

    @Override
    public InetSocketAddress boundAddress() {
        return listener == null ? null : listener.boundAddress();
    }

    /** Stops accepting (unless the socket was handed over) and closes each connection after its next response. */
    @Override
    public void drain() {
        if (listener != null) {
            listener.drain();
        }
        closeIdlePools();
    }

    @Override
    public void close() {
        if (listener != null) {
            listener.close();
        }
        closeIdlePools();
    }

    private void closeIdlePools() {
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

    /** The route stage of the cluster's own port from now on; by default, all to this cluster. */
    public void setRoutes(RouteStage routes) {
        if (listener != null) {
            listener.setRoutes(routes);
        }
    }

    /** The filter chain of every request on the cluster's own port from now on; by default, none. */
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

    SessionAffinity sessionAffinity() {
        return sessionAffinity;
    }

    /** Whether {@code request} is pinned (cookie affinity) to one of this cluster's nodes, usable or not. */
    public boolean pins(HttpRequest request) {
        return cluster.config().affinityOrDefault() == Affinity.COOKIE && sessionAffinity.pinnedIndex(request) >= 0;
    }

    /** The node pools of {@code loop}; created on first use, then used only on that loop. */
    BackendPools poolsFor(EventLoop loop) {
        BackendPools existing = pools.get(loop);
        return existing != null ? existing
                : pools.computeIfAbsent(loop, l -> new BackendPools(l, cluster, transport, nodeAddresses, connectors,
                        nodeTls));
    }
}
