package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.http.codec.ClientCodec;
import io.loadwise.dispatcher.http.codec.RequestDecoder;
import io.loadwise.dispatcher.metrics.TrafficCounters;
import io.loadwise.dispatcher.net.AcceptGuard;
import io.loadwise.dispatcher.net.AddressBlock;
import io.loadwise.dispatcher.net.ConnectionLimit;
import io.loadwise.dispatcher.net.ListenSocket;
import io.loadwise.dispatcher.net.NodeAddress;
import io.loadwise.dispatcher.net.PerClientConnections;
import io.loadwise.dispatcher.net.ProxyHeaderGate;
import io.loadwise.dispatcher.net.ProxyProtocolStats;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.tls.ServerTls;
import io.loadwise.dispatcher.tls.TlsFileException;
import io.loadwise.dispatcher.acme.AcmeRenewal;
import io.loadwise.dispatcher.tls.TlsListener;
import io.loadwise.dispatcher.tls.TlsProviders;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client side of an HTTP port: the listening socket, TLS, HTTP/2, the codec and a {@link FrontendHandler}
 * per connection, whose {@link RouteStage} says which cluster each request goes to. A cluster with {@code listen}
 * owns one that sends everything to it ({@link HttpProxyServer}); each of {@code listeners[]} is one with a route
 * table. Nodes, pools and affinity are the target cluster's ({@link HttpProxyServer}), never the listener's.
 *
 * <p>Client pipeline: HTTP codec (which also counts the bytes and tracks the drain of hot reload),
 * {@link FrontendHandler}; with TLS, a bytes meter and the TLS handler before the codec.
 */
public final class HttpListener {

    private static final Logger log = LoggerFactory.getLogger(HttpListener.class);
    static final String FRONTEND = "frontend";
    /** The HTTP/1.1 codec's name in the client pipeline. */
    public static final String CODEC = "codec";

    private final ListenerSettings settings;
    private final TrafficCounters counters;
    private final Transport transport;
    private final ConnectionLimit dispatcherLimit;
    private final Http2Support.Factory http2Factory;
    private final Http3Support.Factory http3Factory;
    private final List<AddressBlock> trustedProxies;
    /** The cluster every connection starts with (an exchange made at once); null for a route table's listener. */
    private final HttpProxyServer home;
    private final DrainingConnections connections = new DrainingConnections();
    private final PerClientConnections perClient;
    /** Reads PROXY headers in front of everything else; null when the listener takes none. */
    private final ProxyHeaderGate proxyHeaders;
    private volatile RouteStage routes;
    private volatile ListenSocket socket;
    private volatile InetSocketAddress bound;
    private volatile TlsListener tls;
    private volatile Http2Support http2;
    /** HTTP/3 on the same port over UDP, when {@code http3.enabled}; null otherwise. */
    private volatile Http3Support http3;
    /** Adds {@code Alt-Svc} to HTTP/1.1 and h2 answers while HTTP/3 is served; null otherwise. */
    private volatile AltSvc altSvc;

    /**
     * @param counters where connection events and the requests the listener answers itself are counted
     * @param home the cluster of a cluster's own listener, or null
     * @param dispatcherLimit client connections of every listener of the dispatcher; null: none
     * @param http2 makes the HTTP/2 side when the settings enable it; null: HTTP/1.1 only
     */
    public HttpListener(ListenerSettings settings, TrafficCounters counters, RouteStage routes, HttpProxyServer home,
            Transport transport, ConnectionLimit dispatcherLimit, Http2Support.Factory http2) {
        this(settings, counters, routes, home, transport, dispatcherLimit, http2, null);
    }

    /** @param http3 makes the HTTP/3 side when the settings enable it; null: none */
    public HttpListener(ListenerSettings settings, TrafficCounters counters, RouteStage routes, HttpProxyServer home,
            Transport transport, ConnectionLimit dispatcherLimit, Http2Support.Factory http2,
            Http3Support.Factory http3) {
        this.settings = settings;
        this.http3Factory = http3;
        this.counters = counters;
        this.routes = AcmeChallengeStage.before(routes);
        this.home = home;
        this.transport = transport;
        this.dispatcherLimit = dispatcherLimit;
        this.http2Factory = http2;
        this.trustedProxies = AddressBlock.parseAll(settings.trustedProxies());
        this.perClient = settings.maxConnectionsPerClient() > 0
                ? new PerClientConnections(settings.name(), settings.maxConnectionsPerClient()) : null;
        this.proxyHeaders = settings.proxyProtocol() == null ? null
                : new ProxyHeaderGate(settings.name(), settings.proxyProtocol().settings(), new ProxyProtocolStats())
                        .limitPerClient(perClient);
    }

    /** PROXY header counts, or null when the listener reads none. */
    public ProxyProtocolStats proxyProtocolStats() {
        return proxyHeaders == null ? null : proxyHeaders.stats();
    }

    public InetSocketAddress start() throws IOException {
        InetSocketAddress address = NodeAddress.parseListen(settings.listen());
        InetSocketAddress resolved = new InetSocketAddress(address.getHostString(), address.getPort());
        prepareProtocols();
        ListenSocket listen = new ListenSocket(this::initClient);
        ChannelHandler guard = AcceptGuard.of(settings.name(), settings.maxClientConnections(), dispatcherLimit,
                counters::connectionRejected);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(transport.acceptor(), transport.workers())
                .channel(transport.serverChannelClass())
                .option(ChannelOption.SO_BACKLOG, 1024)
                .handler(perClient == null ? guard : new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel server) {
                        server.pipeline().addLast(guard, perClient);
                    }
                })
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, BackendPools.WATER_MARK)
                .childHandler(listen.childHandler());
        ChannelFuture bind = bootstrap.bind(resolved).awaitUninterruptibly();
        if (!bind.isSuccess()) {
            closeTls();
            throw new IOException(settings.name() + ": cannot listen on " + settings.listen() + ": "
                    + bind.cause().getMessage(), bind.cause());
        }
        listen.bound(bind.channel());
        socket = listen;
        bound = listen.address();
        try {
            startHttp3(null);
        } catch (IOException e) {
            releaseSocket().close();
            closeTls();
            throw e;
        }
        startTls();
        if (home == null) {
            log.info("{}: HTTP listening on {}", settings.name(), bound);
        }
        return bound;
    }

    /** Serves on the socket of {@code previous} (same address), which stops owning it; nothing is closed. */
    public InetSocketAddress takeOver(HttpListener previous) throws IOException {
        ListenSocket inherited = previous == null ? null : previous.releaseSocket();
        if (inherited == null) {
            throw new IOException(settings.name() + ": no HTTP listener to take over");
        }
        prepareProtocols();
        inherited.redirect(this::initClient);
        startTls();
        socket = inherited;
        bound = inherited.address();
        startHttp3(previous.releaseHttp3());
        return bound;
    }

    /**
     * Serves HTTP/3 on the bound port when configured, on the UDP socket of {@code previous} when there is one (a
     * reload); then advertises it by {@code Alt-Svc}. A previous HTTP/3 side this listener does not want is closed.
     */
    private void startHttp3(Http3Support previous) throws IOException {
        boolean wanted = http3Factory != null && settings.http3() != null && settings.http3().enabledOrDefault()
                && tls != null;
        if (!wanted) {
            if (previous != null) {
                previous.close();
            }
            return;
        }
        Http3Support h3 = http3Factory.create(this, settings.http3());
        InetSocketAddress udp = new InetSocketAddress(bound.getAddress(), bound.getPort());
        http3 = previous == null ? startNew(h3, udp) : h3.takeOver(previous, this, udp);
        altSvc = new AltSvc(bound.getPort(), settings.http3().altSvcMaxAgeSecondsOrDefault());
        log.info("{}: HTTP/3 (QUIC) listening on udp {}", settings.name(), http3.boundAddress());
    }

    private static Http3Support startNew(Http3Support h3, InetSocketAddress udp) throws IOException {
        h3.start(udp);
        return h3;
    }

    private synchronized Http3Support releaseHttp3() {
        Http3Support released = http3;
        http3 = null;
        return released;
    }

    /** The HTTP/3 side, or null when the listener serves none. */
    public Http3Support http3() {
        return http3;
    }

    private void startTls() {
        TlsListener t = tls;
        if (t != null) {
            t.start();
        }
    }

    private void initClient(Channel ch) {
        TlsListener tlsListener = tls;
        if (tlsListener != null) {
            // bytes on the wire are the encrypted ones: counted before TLS, by a meter of their own
            ch.pipeline().addLast(TrafficMeter.NAME, new TrafficMeter(counters, true));
            tlsListener.install(ch.pipeline());
        }
        // clear text: the codec counts the bytes and tracks the drain, so that messages cross fewer handlers
        ClientCodec codec = new ClientCodec(settings.maxHeaderBytes(), tlsListener == null ? counters : null,
                connections);
        ch.pipeline().addLast(CODEC, codec);
        AltSvc alt = altSvc;
        if (alt != null) {
            ch.pipeline().addLast(AltSvc.NAME, alt);
        }
        ch.pipeline().addLast(FRONTEND, new FrontendHandler(this, codec.requestDecoder()));
        Http2Support h2 = http2;
        if (h2 != null) {
            h2.addDetectors(ch.pipeline());
        }
        if (proxyHeaders != null) {
            proxyHeaders.install(ch);
        }
    }

    /** TLS termination and HTTP/2, as configured, before the listener takes connections. */
    private void prepareProtocols() throws IOException {
        if (settings.tls() != null) {
            try {
                AcmeRenewal.standInIfMissing(settings.name(), settings.tls()); // with tls.acme only
                tls = new TlsListener(settings.name(), settings.name() + ": tls", settings.tls(),
                        TlsProviders.preferred(), ServerTls.alpnFor(settings.http2().enabledOrDefault()),
                        settings.headerTimeoutMs());
                AcmeRenewal.start(settings.name(), settings.tls(), tls); // with tls.acme; stops as tls closes
            } catch (TlsFileException e) {
                throw new IOException(e.getMessage(), e);
            }
        }
        http2 = http2Factory != null && settings.http2().enabledOrDefault()
                ? http2Factory.create(this, settings.http2(), settings.maxHeaderBytes(), tls != null) : null;
    }

    private void closeTls() {
        TlsListener listener = tls;
        if (listener != null) {
            listener.close();
            tls = null;
        }
    }

    private synchronized ListenSocket releaseSocket() {
        ListenSocket released = socket;
        socket = null;
        return released;
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
        if (pipeline.get(AltSvc.NAME) != null) {
            pipeline.remove(AltSvc.NAME); // each h2 stream gets its own (addStreamStages)
        }
    }

    /** The stages of an h2 or h3 stream after its adapter: {@code Alt-Svc} when HTTP/3 is on, then the frontend. */
    public void addStreamStages(ChannelPipeline pipeline) {
        AltSvc alt = altSvc;
        if (alt != null) {
            pipeline.addLast(AltSvc.NAME, alt);
        }
        pipeline.addLast(FRONTEND, newStreamFrontend());
    }

    /**
     * The handler that serves one HTTP/2 stream as an HTTP/1.1 client connection of one request: the same
     * route stage, exchange, pools, policies, affinity, header rewriting and counters. (An HTTP/2 connection
     * counts as one client connection, and each open stream as one more.)
     */
    public ChannelHandler newStreamFrontend() {
        return new FrontendHandler(this, new RequestDecoder(settings.maxHeaderBytes(), new ArrayDeque<>(1)));
    }

    /** Stops accepting (unless the socket was handed over) and closes each connection after its next response. */
    public void drain() {
        close();
        connections.drain();
    }

    public void close() {
        ListenSocket owned = releaseSocket();
        if (owned != null) {
            owned.close();
        }
        Http2Support h2 = http2;
        if (h2 != null) {
            h2.close(); // GOAWAY on every HTTP/2 connection
        }
        Http3Support h3 = releaseHttp3();
        if (h3 != null) {
            h3.close();
        }
        TlsListener listener = tls;
        if (listener != null) {
            listener.close();
        }
    }

    /** The route stage of every request from now on: an atomic swap; requests in flight keep their route. */
    public void setRoutes(RouteStage routes) {
        this.routes = AcmeChallengeStage.before(routes);
    }

    RouteStage routes() {
        return routes;
    }

    HttpProxyServer home() {
        return home;
    }

    public String name() {
        return settings.name();
    }

    /** The event loops connections (and the HTTP/3 side's UDP socket) run on. */
    public Transport transport() {
        return transport;
    }

    /** The name the access log gives the listener: a {@code listeners[]} entry's, or its cluster's. */
    String logName() {
        String name = settings.name();
        return name.substring(name.indexOf(' ') + 1);
    }

    public ListenerSettings settings() {
        return settings;
    }

    /** Connection events and the answers the listener gives itself (no route, a filter's answer). */
    public TrafficCounters counters() {
        return counters;
    }

    /** The listener terminates TLS: nodes are told the client spoke https. */
    boolean secure() {
        return settings.tls() != null;
    }

    /** The listener's TLS (certificates in use, provider); {@code null} on a clear-text listener. */
    public TlsListener tls() {
        return tls;
    }

    public InetSocketAddress boundAddress() {
        return bound;
    }

    /** Connections closed at once because their client address held {@code maxConnectionsPerClient}. */
    public long rejectedPerClient() {
        return perClient == null ? 0 : perClient.rejected();
    }

    long idleNanos() {
        return java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(settings.idleTimeoutMs());
    }

    long headerTimeoutNanos() {
        return java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(settings.headerTimeoutMs());
    }

    /** Whether a client at {@code address} is a proxy whose forwarding headers are kept and appended to. */
    boolean trusts(InetAddress address) {
        return address != null && !trustedProxies.isEmpty() && AddressBlock.anyContains(trustedProxies, address);
    }
}
