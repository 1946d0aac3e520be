package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * Nodes that register themselves with the cluster ({@code POST /api/clusters/{name}/registrations}, the
 * mod_cluster MCMP idea over the REST API). Registered nodes live in memory only: they are never written
 * into the configuration file, and one whose heartbeats stop is removed after {@code ttlMs}.
 *
 * @param enabled default false: the cluster takes no registration
 * @param allowedNetworks CIDR blocks a registered node's address must fall in; required when enabled
 * @param ttlMs how long a registration lives without a heartbeat; default {@value #DEFAULT_TTL_MS}
 * @param maxNodes registered nodes the cluster holds at most; default {@value #DEFAULT_MAX_NODES}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RegistrationConfig(Boolean enabled, List<String> allowedNetworks, Integer ttlMs, Integer maxNodes) {

    public static final int DEFAULT_TTL_MS = 15_000;
    public static final int MIN_TTL_MS = 1_000;
    public static final int MAX_TTL_MS = 600_000;
    public static final int DEFAULT_MAX_NODES = 64;
    public static final int MAX_MAX_NODES = 1_024;

    public boolean enabledOrDefault() {
        return enabled != null && enabled;
    }

    public List<String> allowedNetworksOrEmpty() {
        return allowedNetworks == null ? List.of() : allowedNetworks;
    }

    public int ttlMsOrDefault() {
        return ttlMs == null ? DEFAULT_TTL_MS : ttlMs;
    }

    public int maxNodesOrDefault() {
        return maxNodes == null ? DEFAULT_MAX_NODES : maxNodes;
    }

    /** Whether {@code cluster} takes registrations. */
    public static boolean enabledFor(ClusterConfig cluster) {
        return cluster.registration() != null && cluster.registration().enabledOrDefault();
    }
}
