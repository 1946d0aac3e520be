package io.loadwise.dispatcher.http3;

import io.loadwise.dispatcher.config.Http3Config;
import io.loadwise.dispatcher.http.Http3Support;
import io.loadwise.dispatcher.http.HttpListener;
import io.loadwise.dispatcher.http2.Http2Frontend;
import io.loadwise.dispatcher.metrics.QuicCounts;
import io.loadwise.dispatcher.net.ClientAddress;
import io.loadwise.dispatcher.net.PerClientConnections;
import io.loadwise.dispatcher.tls.QuicServerTls;
import io.loadwise.dispatcher.tls.TlsFileException;
import io.loadwise.dispatcher.tls.TlsListener;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.codec.http3.DefaultHttp3SettingsFrame;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.http3.Http3ErrorCode;
import io.netty.handler.codec.http3.Http3ServerConnectionHandler;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.util.AttributeKey;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HTTP/3 on one TLS listener: a UDP socket on the listener's port, Netty's QUIC codec (quiche) and HTTP/3 codec,
 * and per request stream an {@link Http3StreamAdapter} and the listener's own stream frontend, so routes, filters,
 * pools, policies, affinity, header rewriting, limits and counters are those of h2 streams.
 *
 * <p>Protections (docs/http3.md):
 * <ul>
 *   <li>address validation by Retry with HMAC-signed, expiring tokens ({@link RetryTokens}) before any connection
 *       state: no amplification, no handshake work for spoofed sources;</li>
 *   <li>{@code initial_max_streams_bidi} = {@code maxConcurrentStreams}: a client opening more is closed by QUIC
 *       with STREAM_LIMIT_ERROR; {@code SETTINGS_MAX_FIELD_SECTION_SIZE} = {@code maxHeaderListSize}, the QPACK
 *       dynamic table off;</li>
 *   <li>flow control windows as h2's ({@link #STREAM_WINDOW}, {@link #CONNECTION_WINDOW}), returned as the bytes are
 *       read towards the node;</li>
 *   <li>more than {@link #MAX_ABANDONED_STREAMS} streams ended without a whole request (reset by the client, or
 *       malformed) in {@link #ABANDON_WINDOW_SECONDS} s close the connection with H3_EXCESSIVE_LOAD (rapid reset);</li>
 *   <li>{@link #ACTIVE_CONNECTION_IDS} connection IDs at most from a client (CONNECTION_ID_LIMIT_ERROR beyond);</li>
 *   <li>connections per client address ({@code maxConnectionsPerClient}) and per listener
 *       ({@code maxClientConnections}); the idle timeout is the listener's;</li>
 *   <li>no 0-RTT: early data is refused by TLS, so no request can be replayed.</li>
 * </ul>
 */
public final class Http3Frontend implements Http3Support {

    private static final Logger log = LoggerFactory.getLogger(Http3Frontend.class);
    public static final int STREAM_WINDOW = Http2Frontend.STREAM_WINDOW;
    public static final int CONNECTION_WINDOW = Http2Frontend.CONNECTION_WINDOW;
    public static final int MAX_ABANDONED_STREAMS = Http2Frontend.MAX_RESETS;
    public static final int ABANDON_WINDOW_SECONDS = Http2Frontend.RESET_WINDOW_SECONDS;
    public static final int ACTIVE_CONNECTION_IDS = 4;
    /** SETTINGS_MAX_FIELD_SECTION_SIZE (RFC 9114 §7.2.4.1). */
    private static final long MAX_FIELD_SECTION_SIZE = 0x6;
    /** QUIC's CONNECTION_REFUSED transport error (RFC 9000 §20.1). */
    private static final int CONNECTION_REFUSED = 0x2;
    /** How long a close waits for the streams a connection had accepted: an HTTP/2 GOAWAY's grace. */
    public static final long DRAIN_LIMIT_MS = Http2Frontend.GRACEFUL_SHUTDOWN_MS;
    private static final AttributeKey<StreamLedger> LEDGER = AttributeKey.valueOf(Http3Frontend.class, "ledger");

    private final Http3Config config;
    private final String name;
    private final int maxHeaderListSize;
    private final long idleMs;
    private final int maxConnections;
    private final QuicStats stats = new QuicStats();
    private final RetryTokens tokens;
    private final PerClientConnections perClient;
    private final Set<QuicChannel> connections = ConcurrentHashMap.newKeySet();
    private final Object tlsConfig;
    private volatile HttpListener owner;
    private volatile QuicSslContext ssl;
    private volatile Channel udp;
    /** The UDP socket once {@link #close} began: it waits for its connections to end; null before. */
    private volatile Channel draining;

    public Http3Frontend(HttpListener listener, Http3Config config) {
        this.owner = listener;
        this.config = config;
        this.name = listener.name();
        this.maxHeaderListSize = config.maxHeaderListSizeOr(listener.settings().maxHeaderBytes());
        this.idleMs = listener.settings().idleTimeoutMs();
        this.maxConnections = listener.settings().maxClientConnections();
        int perClientMax = config.maxConnectionsPerClient() != null ? config.maxConnectionsPerClient()
                : listener.settings().maxConnectionsPerClient();
        this.perClient = perClientMax > 0 ? new PerClientConnections(name + " (h3)", perClientMax) : null;
        this.tokens = new RetryTokens(TimeUnit.SECONDS.toMillis(config.retryTokenLifetimeSecondsOrDefault()),
                System::currentTimeMillis);
        this.tlsConfig = listener.settings().tls();
    }

    @Override
    public void start(InetSocketAddress address) throws IOException {
        TlsListener tls = owner.tls();
        if (tls == null) {
            throw new IOException(name + ": http3 needs tls");
        }
        ssl = loadTls(tls);
        tls.onReload(this::reloadTls);
        ChannelHandler codec = Http3.newQuicServerCodecBuilder()
                .sslEngineProvider(quic -> ssl.newEngine(quic.alloc()))
                .maxIdleTimeout(idleMs, TimeUnit.MILLISECONDS)
                .initialMaxData(CONNECTION_WINDOW)
                .initialMaxStreamDataBidirectionalRemote(STREAM_WINDOW)
                .initialMaxStreamDataBidirectionalLocal(STREAM_WINDOW)
                .initialMaxStreamsBidirectional(config.maxConcurrentStreamsOrDefault())
                .activeConnectionIdLimit(ACTIVE_CONNECTION_IDS)
                .tokenHandler(tokens)
                .handler(new ConnectionInit())
                .build();
        ChannelFuture bind = new Bootstrap()
                .group(owner.transport().workers())
                .channel(owner.transport().kind().datagramChannelClass())
                .handler(codec)
                .bind(address).awaitUninterruptibly();
        if (!bind.isSuccess()) {
            throw new IOException(name + ": cannot listen on udp " + address + " for HTTP/3: "
                    + bind.cause().getMessage(), bind.cause());
        }
        udp = bind.channel();
    }

    private QuicSslContext loadTls(TlsListener tls) throws IOException {
        try {
            return QuicServerTls.load(name + ": tls", tls.config(), Http3.supportedApplicationProtocols());
        } catch (TlsFileException | RuntimeException e) {
            throw new IOException(name + ": HTTP/3: " + e.getMessage(), e);
        }
    }

    /** After the TCP side reloaded its certificates: the next QUIC handshake uses them too. */
    private void reloadTls() {
        TlsListener tls = owner.tls();
        if (tls == null) {
            return;
        }
        try {
            ssl = loadTls(tls);
            log.info("{}: HTTP/3 certificates reloaded", name);
        } catch (IOException e) {
            log.warn("{}: HTTP/3 keeps its previous certificates: {}", name, e.getMessage());
        }
    }

    @Override
    public Http3Support takeOver(Http3Support previous, HttpListener newOwner, InetSocketAddress address)
            throws IOException {
        if (previous instanceof Http3Frontend old && old.sameSettings(this)) {
            old.owner = newOwner; // its connections go on, their new streams through the new listener's stages
            TlsListener tls = newOwner.tls();
            if (tls != null) {
                tls.onReload(old::reloadTls);
            }
            return old;
        }
        previous.close();
        if (previous instanceof Http3Frontend old) {
            old.awaitClosed(); // its streams finish first (at most DRAIN_LIMIT_MS): the port is free after
        }
        start(address);
        return this;
    }

    private boolean sameSettings(Http3Frontend other) {
        return config.equals(other.config) && maxHeaderListSize == other.maxHeaderListSize
                && idleMs == other.idleMs && maxConnections == other.maxConnections
                && Objects.equals(tlsConfig, other.tlsConfig);
    }

    /**
     * GOAWAY on every connection; each closes with H3_NO_ERROR once the streams it had accepted have ended, and the
     * UDP socket, which carries them all, once the last has (within {@link #DRAIN_LIMIT_MS}; then the rest are
     * closed). Returns at once; {@link #awaitClosed} waits for the socket.
     */
    @Override
    public void close() {
        Channel channel = udp;
        if (channel == null) {
            return;
        }
        udp = null;
        draining = channel;
        if (connections.isEmpty()) {
            channel.close();
            return;
        }
        for (QuicChannel quic : connections) {
            quic.eventLoop().execute(() -> quic.attr(LEDGER).get().goAway());
        }
        channel.eventLoop().schedule(() -> {
            if (channel.isOpen()) {
                log.info("{}: HTTP/3 close: {} connections still had streams after {} ms, closed", name,
                        connections.size(), DRAIN_LIMIT_MS);
                connections.forEach(q -> q.close(true, Http3ErrorCode.H3_NO_ERROR.code(), Unpooled.EMPTY_BUFFER));
                channel.close();
            }
        }, DRAIN_LIMIT_MS, TimeUnit.MILLISECONDS);
    }

    /** Waits until the UDP socket of a {@link #close} is closed (a new socket binds its port next). */
    private void awaitClosed() {
        Channel channel = draining;
        if (channel != null) {
            channel.closeFuture().awaitUninterruptibly(DRAIN_LIMIT_MS + 5_000, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public QuicCounts counts() {
        return stats.read(tokens);
    }

    @Override
    public InetSocketAddress boundAddress() {
        Channel channel = udp;
        return channel == null ? null : (InetSocketAddress) channel.localAddress();
    }

    /** Each QUIC connection, once its address is validated: limits, then the HTTP/3 connection handler. */
    private final class ConnectionInit extends ChannelInitializer<QuicChannel> {
        @Override
        protected void initChannel(QuicChannel quic) {
            InetSocketAddress peer = (InetSocketAddress) quic.remoteSocketAddress();
            // the client's address for limits, rate limits, forwarding headers and logs (ClientAddress)
            quic.attr(ClientAddress.PROXIED).set(peer);
            if (!admit(quic, peer)) {
                stats.connectionRefused();
                quic.close(false, CONNECTION_REFUSED, Unpooled.EMPTY_BUFFER);
                return;
            }
            stats.connectionOpened();
            connections.add(quic);
            quic.closeFuture().addListener(f -> {
                connections.remove(quic);
                stats.connectionClosed();
                Channel socket = draining;
                if (socket != null && connections.isEmpty()) {
                    socket.close(); // the last connection of a drain has ended
                }
            });
            DefaultHttp3SettingsFrame settings = new DefaultHttp3SettingsFrame();
            settings.put(MAX_FIELD_SECTION_SIZE, (long) maxHeaderListSize);
            StreamLedger ledger = new StreamLedger(quic, name, stats);
            quic.attr(LEDGER).set(ledger);
            quic.pipeline().addLast(new Http3ServerConnectionHandler(new ChannelInitializer<QuicStreamChannel>() {
                @Override
                protected void initChannel(QuicStreamChannel stream) {
                    if (!ledger.opened(stream)) {
                        return; // after this connection's GOAWAY
                    }
                    HttpListener listener = owner;
                    Http3StreamAdapter adapter = new Http3StreamAdapter(name, listener.counters(), stats);
                    stream.pipeline().addLast("h3-stream", adapter);
                    listener.addStreamStages(stream.pipeline()); // Alt-Svc (a node's own replaced), frontend
                    stats.streamOpened();
                    stream.closeFuture().addListener(f -> ledger.closed(adapter.requestDone()));
                }
            }, null, null, settings, true));
        }

        private boolean admit(QuicChannel quic, InetSocketAddress peer) {
            if (maxConnections > 0 && connections.size() >= maxConnections) {
                return false;
            }
            InetAddress client = peer == null ? null : peer.getAddress();
            return perClient == null || client == null || perClient.admitProxied(quic, client);
        }
    }
}
