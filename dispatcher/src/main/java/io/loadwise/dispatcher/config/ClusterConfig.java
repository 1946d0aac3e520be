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
        List<NodeConfig> nodes) {

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

    public List<NodeConfig> nodesOrEmpty() {
        return nodes == null ? List.of() : nodes;
    }
}
