package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * One HTTP port that serves many applications ({@code "listeners"}): requests are matched against
 * {@link #routes} in order and the first match decides where they go. Connection-level settings live here;
 * what happens to a request once it reaches a cluster (timeouts, retries, affinity) is the cluster's.
 *
 * @param name unique among listeners; names the listener in the API, logs and metrics
 * @param listen {@code host:port} as a cluster's {@code listen}
 * @param tls TLS termination, certificates chosen by SNI as on a cluster
 * @param http2 HTTP/2 to clients as on a cluster
 * @param routes the route table, first match wins
 * @param trustedProxies peers whose {@code X-Forwarded-For} names the client (rate-limit keys, logs)
 * @param maxClientConnections connections this listener holds at most
 * @param maxConnectionsPerClient connections one client address may hold at once; default unlimited
 * @param idleTimeoutMs a client connection with nothing in flight is closed after this long; default 30 s
 * @param headerTimeoutMs a request head must arrive whole within this long of its first byte; default 10 s
 * @param maxHeaderBytes the largest request head; default 16 KiB
 * @param proxyProtocol the PROXY protocol header from trusted balancers; null: none read
 * @param http3 HTTP/3 over QUIC on the same port (UDP), with the listener's certificates; null: none
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ListenerConfig(
        String name,
        String listen,
        TlsConfig tls,
        Http2Config http2,
        List<RouteConfig> routes,
        List<String> trustedProxies,
        Integer maxClientConnections,
        Integer maxConnectionsPerClient,
        Integer idleTimeoutMs,
        Integer headerTimeoutMs,
        Integer maxHeaderBytes,
        ProxyProtocolConfig proxyProtocol,
        Http3Config http3) {

    public List<RouteConfig> routesOrEmpty() {
        return routes == null ? List.of() : routes;
    }

    public List<String> trustedProxiesOrEmpty() {
        return trustedProxies == null ? List.of() : trustedProxies;
    }

    public int idleTimeoutMsOrDefault() {
        return idleTimeoutMs == null ? ClusterConfig.DEFAULT_IDLE_TIMEOUT_MS : idleTimeoutMs;
    }

    public int headerTimeoutMsOrDefault() {
        return headerTimeoutMs == null ? ClusterConfig.DEFAULT_HEADER_TIMEOUT_MS : headerTimeoutMs;
    }

    public int maxHeaderBytesOrDefault() {
        return maxHeaderBytes == null ? ClusterConfig.DEFAULT_MAX_HEADER_BYTES : maxHeaderBytes;
    }

    /** 0 means no limit per client. */
    public int maxConnectionsPerClientOrUnlimited() {
        return maxConnectionsPerClient == null ? 0 : maxConnectionsPerClient;
    }
}
