package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.Http2Config;
import io.loadwise.dispatcher.config.Http3Config;
import io.loadwise.dispatcher.config.ListenerConfig;
import io.loadwise.dispatcher.config.ProxyProtocolConfig;
import io.loadwise.dispatcher.config.TlsConfig;
import java.util.List;

/**
 * What an {@link HttpListener} needs of the configuration: its address and protocols, and the limits that hold
 * per client connection, before any route or cluster is known. A cluster with {@code listen} has one of its own
 * ({@link #of(ClusterConfig)}); so has each of {@code listeners[]} ({@link #of(ListenerConfig)}).
 *
 * @param name how the listener is named in log lines: {@code cluster shop}, {@code listener edge}
 * @param maxClientConnections 0 for no limit of its own
 * @param maxConnectionsPerClient 0 for no limit per client address
 * @param proxyProtocol PROXY headers read from balancers in front; null: none
 * @param http3 HTTP/3 over QUIC on the same port; null: none
 */
public record ListenerSettings(String name, String listen, TlsConfig tls, Http2Config http2, int maxHeaderBytes,
        int headerTimeoutMs, int idleTimeoutMs, int maxClientConnections, int maxConnectionsPerClient,
        List<String> trustedProxies, ProxyProtocolConfig proxyProtocol, Http3Config http3) {

    public static ListenerSettings of(ClusterConfig c) {
        return new ListenerSettings("cluster " + c.name(), c.listen(), c.tls(), c.http2OrDefault(),
                c.maxHeaderBytesOrDefault(), c.headerTimeoutMsOrDefault(), c.idleTimeoutMsOrDefault(),
                c.maxClientConnectionsOrDefault(), 0, c.trustedProxiesOrEmpty(), c.proxyProtocol(), c.http3());
    }

    public static ListenerSettings of(ListenerConfig l) {
        return new ListenerSettings("listener " + l.name(), l.listen(), l.tls(),
                l.http2() == null ? new Http2Config(null, null, null) : l.http2(), l.maxHeaderBytesOrDefault(),
                l.headerTimeoutMsOrDefault(), l.idleTimeoutMsOrDefault(),
                l.maxClientConnections() == null ? 0 : l.maxClientConnections(), l.maxConnectionsPerClientOrUnlimited(),
                l.trustedProxiesOrEmpty(), l.proxyProtocol(), l.http3());
    }
}
