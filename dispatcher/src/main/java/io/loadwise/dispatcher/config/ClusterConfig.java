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
        Integer panicThresholdPercent) {

    public static final int DEFAULT_CONNECT_TIMEOUT_MS = 2_000;
    public static final int DEFAULT_RESPONSE_TIMEOUT_MS = 30_000;
    /** QoS-01: an idle client connection is closed after 30 s. */
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

    public int requestIdleTimeoutMsOrDefault() {
        return requestIdleTimeoutMs == null ? DEFAULT_REQUEST_IDLE_TIMEOUT_MS : requestIdleTimeoutMs;
    }

    public int responseIdleTimeoutMsOrDefault() {
        return responseIdleTimeoutMs == null ? DEFAULT_RESPONSE_IDLE_TIMEOUT_MS : responseIdleTimeoutMs;
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

    /** A builder for code that makes or changes a configuration (tests, edits, the console's form). */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this configuration. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.name = name;
        b.mode = mode;
        b.listen = listen;
        b.policy = policy;
        b.policyOptions = policyOptions;
        b.balance = balance;
        b.affinity = affinity;
        b.affinityCookie = affinityCookie;
        b.connectTimeoutMs = connectTimeoutMs;
        b.responseTimeoutMs = responseTimeoutMs;
        b.idleTimeoutMs = idleTimeoutMs;
        b.maxHeaderBytes = maxHeaderBytes;
        b.maxConnectionsPerNode = maxConnectionsPerNode;
        b.connectAttempts = connectAttempts;
        b.unhealthyRetryMs = unhealthyRetryMs;
        b.agentPath = agentPath;
        b.agentPollIntervalMs = agentPollIntervalMs;
        b.agentExpiryMs = agentExpiryMs;
        b.agentReprobeMs = agentReprobeMs;
        b.headerTimeoutMs = headerTimeoutMs;
        b.requestIdleTimeoutMs = requestIdleTimeoutMs;
        b.responseIdleTimeoutMs = responseIdleTimeoutMs;
        b.exchangeTimeoutMs = exchangeTimeoutMs;
        b.maxClientConnections = maxClientConnections;
        b.trustedProxies = trustedProxies;
        b.nodes = nodes;
        b.agent = agent;
        b.tls = tls;
        b.http2 = http2;
        b.nodeTls = nodeTls;
        b.healthCheck = healthCheck;
        b.outlierDetection = outlierDetection;
        b.slowStartMs = slowStartMs;
        b.queueTimeoutMs = queueTimeoutMs;
        b.maxQueue = maxQueue;
        b.retryBudgetPercent = retryBudgetPercent;
        b.registration = registration;
        b.retryOn = retryOn;
        b.minActive = minActive;
        b.panicThresholdPercent = panicThresholdPercent;
        return b;
    }

    /** Sets components by name; {@link #build()} makes the record. Unset components stay {@code null} (defaults). */
    public static final class Builder {
        private String name;
        private Mode mode;
        private String listen;
        private String policy;
        private Map<String, Double> policyOptions;
        private Balance balance;
        private Affinity affinity;
        private String affinityCookie;
        private Integer connectTimeoutMs;
        private Integer responseTimeoutMs;
        private Integer idleTimeoutMs;
        private Integer maxHeaderBytes;
        private Integer maxConnectionsPerNode;
        private Integer connectAttempts;
        private Integer unhealthyRetryMs;
        private String agentPath;
        private Integer agentPollIntervalMs;
        private Integer agentExpiryMs;
        private Integer agentReprobeMs;
        private Integer headerTimeoutMs;
        private Integer requestIdleTimeoutMs;
        private Integer responseIdleTimeoutMs;
        private Integer exchangeTimeoutMs;
        private Integer maxClientConnections;
        private List<String> trustedProxies;
        private List<NodeConfig> nodes;
        private AgentSettings agent;
        private TlsConfig tls;
        private Http2Config http2;
        private NodeTlsConfig nodeTls;
        private HealthCheckConfig healthCheck;
        private OutlierDetectionConfig outlierDetection;
        private Integer slowStartMs;
        private Integer queueTimeoutMs;
        private Integer maxQueue;
        private Integer retryBudgetPercent;
        private RegistrationConfig registration;
        private List<String> retryOn;
        private Integer minActive;
        private Integer panicThresholdPercent;

        private Builder() {
        }

        public Builder name(String name) {
            this.name = name;
            return this;
        }

        public Builder mode(Mode mode) {
            this.mode = mode;
            return this;
        }

        public Builder listen(String listen) {
            this.listen = listen;
            return this;
        }

        public Builder policy(String policy) {
            this.policy = policy;
            return this;
        }

        public Builder policyOptions(Map<String, Double> policyOptions) {
            this.policyOptions = policyOptions;
            return this;
        }

        public Builder balance(Balance balance) {
            this.balance = balance;
            return this;
        }

        public Builder affinity(Affinity affinity) {
            this.affinity = affinity;
            return this;
        }

        public Builder affinityCookie(String affinityCookie) {
            this.affinityCookie = affinityCookie;
            return this;
        }

        public Builder connectTimeoutMs(Integer connectTimeoutMs) {
            this.connectTimeoutMs = connectTimeoutMs;
            return this;
        }

        public Builder responseTimeoutMs(Integer responseTimeoutMs) {
            this.responseTimeoutMs = responseTimeoutMs;
            return this;
        }

        public Builder idleTimeoutMs(Integer idleTimeoutMs) {
            this.idleTimeoutMs = idleTimeoutMs;
            return this;
        }

        public Builder maxHeaderBytes(Integer maxHeaderBytes) {
            this.maxHeaderBytes = maxHeaderBytes;
            return this;
        }

        public Builder maxConnectionsPerNode(Integer maxConnectionsPerNode) {
            this.maxConnectionsPerNode = maxConnectionsPerNode;
            return this;
        }

        public Builder connectAttempts(Integer connectAttempts) {
            this.connectAttempts = connectAttempts;
            return this;
        }

        public Builder unhealthyRetryMs(Integer unhealthyRetryMs) {
            this.unhealthyRetryMs = unhealthyRetryMs;
            return this;
        }

        public Builder agentPath(String agentPath) {
            this.agentPath = agentPath;
            return this;
        }

        public Builder agentPollIntervalMs(Integer agentPollIntervalMs) {
            this.agentPollIntervalMs = agentPollIntervalMs;
            return this;
        }

        public Builder agentExpiryMs(Integer agentExpiryMs) {
            this.agentExpiryMs = agentExpiryMs;
            return this;
        }

        public Builder agentReprobeMs(Integer agentReprobeMs) {
            this.agentReprobeMs = agentReprobeMs;
            return this;
        }

        public Builder headerTimeoutMs(Integer headerTimeoutMs) {
            this.headerTimeoutMs = headerTimeoutMs;
            return this;
        }

        public Builder requestIdleTimeoutMs(Integer requestIdleTimeoutMs) {
            this.requestIdleTimeoutMs = requestIdleTimeoutMs;
            return this;
        }

        public Builder responseIdleTimeoutMs(Integer responseIdleTimeoutMs) {
            this.responseIdleTimeoutMs = responseIdleTimeoutMs;
            return this;
        }

        public Builder exchangeTimeoutMs(Integer exchangeTimeoutMs) {
            this.exchangeTimeoutMs = exchangeTimeoutMs;
            return this;
        }

        public Builder maxClientConnections(Integer maxClientConnections) {
            this.maxClientConnections = maxClientConnections;
            return this;
        }

        public Builder trustedProxies(List<String> trustedProxies) {
            this.trustedProxies = trustedProxies;
            return this;
        }

        public Builder nodes(List<NodeConfig> nodes) {
            this.nodes = nodes;
            return this;
        }

        public Builder agent(AgentSettings agent) {
            this.agent = agent;
            return this;
        }

        public Builder tls(TlsConfig tls) {
            this.tls = tls;
            return this;
        }

        public Builder http2(Http2Config http2) {
            this.http2 = http2;
            return this;
        }

        public Builder nodeTls(NodeTlsConfig nodeTls) {
            this.nodeTls = nodeTls;
            return this;
        }

        public Builder healthCheck(HealthCheckConfig healthCheck) {
            this.healthCheck = healthCheck;
            return this;
        }

        public Builder outlierDetection(OutlierDetectionConfig outlierDetection) {
            this.outlierDetection = outlierDetection;
            return this;
        }

        public Builder slowStartMs(Integer slowStartMs) {
            this.slowStartMs = slowStartMs;
            return this;
        }

        public Builder queueTimeoutMs(Integer queueTimeoutMs) {
            this.queueTimeoutMs = queueTimeoutMs;
            return this;
        }

        public Builder maxQueue(Integer maxQueue) {
            this.maxQueue = maxQueue;
            return this;
        }

        public Builder retryBudgetPercent(Integer retryBudgetPercent) {
            this.retryBudgetPercent = retryBudgetPercent;
            return this;
        }

        public Builder registration(RegistrationConfig registration) {
            this.registration = registration;
            return this;
        }

        public Builder retryOn(List<String> retryOn) {
            this.retryOn = retryOn;
            return this;
        }

        public Builder minActive(Integer minActive) {
            this.minActive = minActive;
            return this;
        }

        public Builder panicThresholdPercent(Integer panicThresholdPercent) {
            this.panicThresholdPercent = panicThresholdPercent;
            return this;
        }

        public ClusterConfig build() {
            return new ClusterConfig(name, mode, listen, policy, policyOptions, balance, affinity, affinityCookie,
                    connectTimeoutMs, responseTimeoutMs, idleTimeoutMs, maxHeaderBytes, maxConnectionsPerNode,
                    connectAttempts, unhealthyRetryMs, agentPath, agentPollIntervalMs, agentExpiryMs, agentReprobeMs,
                    headerTimeoutMs, requestIdleTimeoutMs, responseIdleTimeoutMs, exchangeTimeoutMs,
                    maxClientConnections, trustedProxies, nodes, agent, tls, http2, nodeTls, healthCheck,
                    outlierDetection, slowStartMs, queueTimeoutMs, maxQueue, retryBudgetPercent, registration, retryOn,
                    minActive, panicThresholdPercent);
        }
    }
}
