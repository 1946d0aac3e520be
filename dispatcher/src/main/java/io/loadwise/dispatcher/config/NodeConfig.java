package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One virtual cluster node as configured. Boxed fields are optional in the file; the accessors with
 * defaults are what the runtime reads.
 *
 * @param name unique within the cluster
 * @param address {@code host:port}
 * @param weight static weight, default 1
 * @param enabled default true
 * @param route session route carried in JSESSIONID (Tomcat jvmRoute, Liberty cloneId); default: none
 * @param agentPath path of the node agent's metrics endpoint; default: the cluster's
 * @param healthCheck fields that replace the cluster's {@code healthCheck} for this node; default: none
 * @param maxConnections HTTP requests in flight to this node at most; a full node is skipped, and a request
 *     that finds every node full waits in the cluster's queue ({@code queueTimeoutMs}); default: no limit
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NodeConfig(String name, String address, Integer weight, Boolean enabled, String route, String agentPath,
        HealthCheckConfig healthCheck, Integer maxConnections) {

    public NodeConfig(String name, String address, Integer weight, Boolean enabled, String route, String agentPath) {
        this(name, address, weight, enabled, route, agentPath, null, null);
    }

    public NodeConfig(String name, String address, Integer weight, Boolean enabled, String route, String agentPath,
            HealthCheckConfig healthCheck) {
        this(name, address, weight, enabled, route, agentPath, healthCheck, null);
    }

    /** Requests in flight at most; 0: no limit. */
    public int maxConnectionsOrDefault() {
        return maxConnections == null ? 0 : maxConnections;
    }

    public int weightOrDefault() {
        return weight == null ? 1 : weight;
    }

    public boolean enabledOrDefault() {
        return enabled == null || enabled;
    }

    public NodeConfig withWeight(int newWeight) {
        return new NodeConfig(name, address, newWeight, enabled, route, agentPath, healthCheck, maxConnections);
    }

    public NodeConfig withEnabled(boolean newEnabled) {
        return new NodeConfig(name, address, weight, newEnabled, route, agentPath, healthCheck, maxConnections);
    }
}
