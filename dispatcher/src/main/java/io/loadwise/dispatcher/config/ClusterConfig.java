package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * One virtual cluster as configured. Optional (boxed) fields fall back to the defaults below, which the
 * {@code OrDefault} accessors apply; the runtime reads only those.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ClusterConfig(
        String name,
        Mode mode,
        String listen,
        String policy,
        Map<String, Double> policyOptions,
        Balance balance,
        Affinity affinity,
        String affinityCookie,
        Integer connectTimeoutMs,
        Integer responseTimeoutMs,
        Integer idleTimeoutMs,
        Integer maxHeaderBytes,
        Integer maxConnectionsPerNode,
        Integer connectAttempts,
        Integer unhealthyRetryMs,
        String agentPath,
        Integer agentPollIntervalMs,
        Integer agentExpiryMs,
        Integer agentReprobeMs,
        Integer headerTimeoutMs,
        Integer requestIdleTimeoutMs,
        Integer responseIdleTimeoutMs,
        Integer exchangeTimeoutMs,
        Integer maxClientConnections,
        List<String> trustedProxies,
        List<NodeConfig> nodes,
        AgentSettings agent,
        TlsConfig tls,
        Http2Config http2,
        NodeTlsConfig nodeTls,
        HealthCheckConfig healthCheck,
        OutlierDetectionConfig outlierDetection,
        Integer slowStartMs,
        Integer queueTimeoutMs,
        Integer maxQueue,
        Integer retryBudgetPercent,
        RegistrationConfig registration,
        List<String> retryOn,
        Integer minActive,
        Integer panicThresholdPercent,
        ProxyProtocolConfig proxyProtocol,
        String sendProxyProtocol,
        String nodeProtocol,
        Http3Config http3) {

    public static final int DEFAULT_CONNECT_TIMEOUT_MS = 2_000;
    public static final int DEFAULT_RESPONSE_TIMEOUT_MS = 30_000;
    /**
     * QoS-01: a client connection on which nothing moves either way is closed after 30 s: between requests, and
     * during a request or response body that stalls (it caps the request and response idle timeouts). The wait
     * for a response head does not count ({@code responseTimeoutMs}).
     */
    public static final int DEFAULT_IDLE_TIMEOUT_MS = 30_000;
    public static final int DEFAULT_MAX_HEADER_BYTES = 16 * 1024;
    public static final int DEFAULT_MAX_CONNECTIONS_PER_NODE = 256;
    public static final int DEFAULT_CONNECT_ATTEMPTS = 3;
    public static final int DEFAULT_UNHEALTHY_RETRY_MS = 5_000;
    public static final String DEFAULT_AGENT_PATH = "/loadwise-agent/metrics";
    /** TAPR-04b: agents are polled every second. */
    public static final int DEFAULT_AGENT_POLL_INTERVAL_MS = 1_000;
    public static final int DEFAULT_AGENT_EXPIRY_MS = 3_000;
    /** TAPR-05: a node whose agent cannot be reached is re-probed every 60 s in the seed. */
    public static final int DEFAULT_AGENT_REPROBE_MS = 60_000;
    public static final String DEFAULT_AFFINITY_COOKIE = "LWROUTE";
    /** HAProxy {@code timeout http-request}: a request head must arrive whole within 10 s of its first byte. */
    public static final int DEFAULT_HEADER_TIMEOUT_MS = 10_000;
    /** A request body that stops moving for this long is abandoned (408 or a closed connection). */
    public static final int DEFAULT_REQUEST_IDLE_TIMEOUT_MS = 30_000;
    /** A response that stops moving (the node stalls, or the client stops reading) for this long is cut off. */
    public static final int DEFAULT_RESPONSE_IDLE_TIMEOUT_MS = 30_000;
    /** The longest one request-response exchange may take from its first byte, whatever keeps moving: 10 min. */
    public static final int DEFAULT_EXCHANGE_TIMEOUT_MS = 600_000;
    /** Requests that wait at most in the cluster queue when every node is full; beyond it: 503 at once. */
    public static final int DEFAULT_MAX_QUEUE = 1_000;
    /** Retries may add at most this share of the cluster's active requests (Envoy's retry budget default). */
    public static final int DEFAULT_RETRY_BUDGET_PERCENT = 20;
    /** F5's priority group activation: a group is used while fewer than this many better nodes are usable. */
    public static final int DEFAULT_MIN_ACTIVE = 1;
    /** Envoy's default: below half the nodes usable, picks spread over every node that accepts connections. */
    public static final int DEFAULT_PANIC_THRESHOLD_PERCENT = 50;

    public int minActiveOrDefault() {
        return minActive == null ? DEFAULT_MIN_ACTIVE : minActive;
    }

    public int panicThresholdPercentOrDefault() {
        return panicThresholdPercent == null ? DEFAULT_PANIC_THRESHOLD_PERCENT : panicThresholdPercent;
    }

    public Map<String, Double> policyOptionsOrEmpty() {
        return policyOptions == null ? Map.of() : policyOptions;
    }

    public Balance balanceOrDefault() {
        return balance == null ? Balance.PER_REQUEST : balance;
    }

    public Affinity affinityOrDefault() {
        return affinity == null ? Affinity.NONE : affinity;
    }

    public String affinityCookieOrDefault() {
        return affinityCookie == null ? DEFAULT_AFFINITY_COOKIE : affinityCookie;
    }

    public int connectTimeoutMsOrDefault() {
        return connectTimeoutMs == null ? DEFAULT_CONNECT_TIMEOUT_MS : connectTimeoutMs;
    }

    public int responseTimeoutMsOrDefault() {
        return responseTimeoutMs == null ? DEFAULT_RESPONSE_TIMEOUT_MS : responseTimeoutMs;
    }

    public int idleTimeoutMsOrDefault() {
        return idleTimeoutMs == null ? DEFAULT_IDLE_TIMEOUT_MS : idleTimeoutMs;
    }

    public int maxHeaderBytesOrDefault() {
        return maxHeaderBytes == null ? DEFAULT_MAX_HEADER_BYTES : maxHeaderBytes;
    }

    public int maxConnectionsPerNodeOrDefault() {
        return maxConnectionsPerNode == null ? DEFAULT_MAX_CONNECTIONS_PER_NODE : maxConnectionsPerNode;
    }

    public int connectAttemptsOrDefault() {
        return connectAttempts == null ? DEFAULT_CONNECT_ATTEMPTS : connectAttempts;
    }

    public int unhealthyRetryMsOrDefault() {
        return unhealthyRetryMs == null ? DEFAULT_UNHEALTHY_RETRY_MS : unhealthyRetryMs;
    }

    public String agentPathOrDefault() {
        return agentPath == null ? DEFAULT_AGENT_PATH : agentPath;
    }

    public int agentPollIntervalMsOrDefault() {
        return agentPollIntervalMs == null ? DEFAULT_AGENT_POLL_INTERVAL_MS : agentPollIntervalMs;
    }

    public int agentExpiryMsOrDefault() {
        return agentExpiryMs == null ? DEFAULT_AGENT_EXPIRY_MS : agentExpiryMs;
    }

    public int agentReprobeMsOrDefault() {
        return agentReprobeMs == null ? DEFAULT_AGENT_REPROBE_MS : agentReprobeMs;
    }

    public int headerTimeoutMsOrDefault() {
        return headerTimeoutMs == null ? DEFAULT_HEADER_TIMEOUT_MS : headerTimeoutMs;
    }

    /**
     * How long a request body may stop moving before the exchange is abandoned: {@code requestIdleTimeoutMs},
     * but never longer than {@code idleTimeoutMs}, since a stalled upload is a connection on which nothing moves
     * either way. This is the value in force; the exchange reads nothing else.
     */
    public int requestIdleTimeoutMsOrDefault() {
        int own = requestIdleTimeoutMs == null ? DEFAULT_REQUEST_IDLE_TIMEOUT_MS : requestIdleTimeoutMs;
        return Math.min(own, idleTimeoutMsOrDefault());
    }

    /**
     * How long a response that has started may stop moving (the node sends nothing, or the client reads nothing)
     * before both connections are closed: {@code responseIdleTimeoutMs}, but never longer than
     * {@code idleTimeoutMs}, since a stalled response is a connection on which nothing moves either way. The wait
     * for the response head is not idleness: {@code responseTimeoutMs} alone governs it. This is the value in
     * force; the exchange reads nothing else.
     */
    public int responseIdleTimeoutMsOrDefault() {
        int own = responseIdleTimeoutMs == null ? DEFAULT_RESPONSE_IDLE_TIMEOUT_MS : responseIdleTimeoutMs;
        return Math.min(own, idleTimeoutMsOrDefault());
    }

    public int exchangeTimeoutMsOrDefault() {
        return exchangeTimeoutMs == null ? DEFAULT_EXCHANGE_TIMEOUT_MS : exchangeTimeoutMs;
    }

    /** Client connections this listener holds at most; 0 when only the global limit applies. */
    public int maxClientConnectionsOrDefault() {
        return maxClientConnections == null ? 0 : maxClientConnections;
    }

    /** Addresses or CIDR blocks whose {@code X-Forwarded-For} and {@code Forwarded} are kept and appended to. */
    public List<String> trustedProxiesOrEmpty() {
        return trustedProxies == null ? List.of() : trustedProxies;
    }

    /** HTTP/2 settings; the defaults (enabled) when absent. */
    public Http2Config http2OrDefault() {
        return http2 == null ? new Http2Config(null, null, null) : http2;
    }

    public List<NodeConfig> nodesOrEmpty() {
        return nodes == null ? List.of() : nodes;
    }

    /** How long a node that joins or comes back takes to reach its full share; 0 (the default): at once. */
    public int slowStartMsOrDefault() {
        return slowStartMs == null ? 0 : slowStartMs;
    }

    /**
     * How long a request that finds every node full (or refusing) waits in the cluster's queue for a free
     * one; 0 (the default): it is not queued, and gets 503 at once as before.
     */
    public int queueTimeoutMsOrDefault() {
        return queueTimeoutMs == null ? 0 : queueTimeoutMs;
    }

    /** Requests the cluster's queue holds at most; one more gets 503 at once. */
    public int maxQueueOrDefault() {
        return maxQueue == null ? DEFAULT_MAX_QUEUE : maxQueue;
    }

    /** Retries in progress at most, as a share of the cluster's active requests; 0 turns retries off. */
    public int retryBudgetPercentOrDefault() {
        return retryBudgetPercent == null ? DEFAULT_RETRY_BUDGET_PERCENT : retryBudgetPercent;
    }

    /**
     * What a failed request is sent again to another node on ({@link RetryOn}); without {@code retryOn},
     * {@link RetryOn#DEFAULT}: connect failures, resets before any response byte, refused streams. Only a
     * validated list gets here; an unknown value throws.
     */
    public RetryOn retryOnOrDefault() {
        return retryOn == null ? RetryOn.DEFAULT : RetryOn.of(retryOn);
    }

    /** Whether nodes may register themselves with this cluster ({@link RegistrationConfig}). */
    public boolean registrationEnabled() {
        return RegistrationConfig.enabledFor(this);
    }

    /**
     * What the dispatcher speaks to the nodes of an http cluster ({@code nodeProtocol}): HTTP/1.1 (the default),
     * HTTP/2 over TLS ({@code h2}, with {@code nodeTls}) or HTTP/2 in clear text with prior knowledge ({@code h2c}).
     * Only a validated value gets here.
     */
    public NodeProtocol nodeProtocolOrDefault() {
        return nodeProtocol == null ? NodeProtocol.HTTP1 : NodeProtocol.of(nodeProtocol);
    }

    /** A builder for code that makes or changes a configuration (tests, edits, the console's form). */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this configuration. */
    public Builder toBuilder() {
        return new Builder().from(this);
    }

    /**
     * Sets components by name ({@link ClusterConfigFields}); {@link #build()} makes the record. Unset components stay
     * {@code null} (defaults).
     */
    public static final class Builder extends ClusterConfigFields<Builder> {

        private Builder() {
        }

        @Override
        Builder self() {
            return this;
        }

        public ClusterConfig build() {
            return new ClusterConfig(name, mode, listen, policy, policyOptions, balance, affinity, affinityCookie,
                    connectTimeoutMs, responseTimeoutMs, idleTimeoutMs, maxHeaderBytes, maxConnectionsPerNode,
                    connectAttempts, unhealthyRetryMs, agentPath, agentPollIntervalMs, agentExpiryMs, agentReprobeMs,
                    headerTimeoutMs, requestIdleTimeoutMs, responseIdleTimeoutMs, exchangeTimeoutMs,
                    maxClientConnections, trustedProxies, nodes, agent, tls, http2, nodeTls, healthCheck,
                    outlierDetection, slowStartMs, queueTimeoutMs, maxQueue, retryBudgetPercent, registration, retryOn,
                    minActive, panicThresholdPercent, proxyProtocol, sendProxyProtocol, nodeProtocol,
                    http3);
        }
    }
}
