package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

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
 * @param contexts the context paths this node serves ({@code "/app"}); default: none named, it serves every
 *     path. Only a cluster with registration enabled routes by context
 * @param priority the node's priority group, lower preferred; default 0 (one group)
 * @param backup whether the node is in the backup group, below every priority; default false
 * @param drain {@code true} (takes no new work), {@code "sessions"} (keeps only the requests pinned to it, until
 *     its sessions are gone; see {@link DrainMode}) or {@code false}; default false. Applied at start and when a
 *     reload changes it; the admin API's drain does not write it
 * @param domain the node's replication domain (mod_cluster's {@code domain}): the nodes that hold copies of each
 *     other's sessions. A request pinned to a node that is gone or drained by {@code true} goes to a usable node of
 *     the same domain before any other; default: none (such a request goes to any node)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NodeConfig(String name, String address, Integer weight, Boolean enabled, String route, String agentPath,
        HealthCheckConfig healthCheck, Integer maxConnections, List<String> contexts, Integer priority,
        Boolean backup, DrainMode drain, String domain) {

    /** At most this many characters in a domain name (mod_cluster's JVMRoute and domain are 64 at most too). */
    public static final int MAX_DOMAIN_LENGTH = 64;

    /** How long a session drain from the configuration waits for a pinned request without the agent: 30 minutes. */
    public static final long DEFAULT_SESSION_IDLE_MS = 30 * 60 * 1000L;

    public NodeConfig(String name, String address, Integer weight, Boolean enabled, String route, String agentPath,
            HealthCheckConfig healthCheck, Integer maxConnections, List<String> contexts, Integer priority,
            Boolean backup, DrainMode drain) {
        this(name, address, weight, enabled, route, agentPath, healthCheck, maxConnections, contexts, priority, backup,
                drain, null);
    }

    public NodeConfig(String name, String address, Integer weight, Boolean enabled, String route, String agentPath,
            HealthCheckConfig healthCheck, Integer maxConnections, List<String> contexts, Integer priority,
            Boolean backup) {
        this(name, address, weight, enabled, route, agentPath, healthCheck, maxConnections, contexts, priority, backup,
                null);
    }

    public NodeConfig(String name, String address, Integer weight, Boolean enabled, String route, String agentPath,
            HealthCheckConfig healthCheck, Integer maxConnections, List<String> contexts) {
        this(name, address, weight, enabled, route, agentPath, healthCheck, maxConnections, contexts, null, null);
    }

    public NodeConfig(String name, String address, Integer weight, Boolean enabled, String route, String agentPath) {
        this(name, address, weight, enabled, route, agentPath, null, null, null);
    }

    public NodeConfig(String name, String address, Integer weight, Boolean enabled, String route, String agentPath,
            HealthCheckConfig healthCheck) {
        this(name, address, weight, enabled, route, agentPath, healthCheck, null, null);
    }

    public NodeConfig(String name, String address, Integer weight, Boolean enabled, String route, String agentPath,
            HealthCheckConfig healthCheck, Integer maxConnections) {
        this(name, address, weight, enabled, route, agentPath, healthCheck, maxConnections, null);
    }

    /** Requests in flight at most; 0: no limit. */
    public int maxConnectionsOrDefault() {
        return maxConnections == null ? 0 : maxConnections;
    }

    public List<String> contextsOrEmpty() {
        return contexts == null ? List.of() : contexts;
    }

    public int priorityOrDefault() {
        return priority == null ? 0 : priority;
    }

    public boolean backupOrDefault() {
        return backup != null && backup;
    }

    public DrainMode drainOrDefault() {
        return drain == null ? DrainMode.NONE : drain;
    }

    /** In the replication domain given ({@code null}: none). */
    public NodeConfig withDomain(String newDomain) {
        return new NodeConfig(name, address, weight, enabled, route, agentPath, healthCheck, maxConnections,
                contexts, priority, backup, drain, newDomain);
    }

    public int weightOrDefault() {
        return weight == null ? 1 : weight;
    }

    public boolean enabledOrDefault() {
        return enabled == null || enabled;
    }

    public NodeConfig withWeight(int newWeight) {
        return new NodeConfig(name, address, newWeight, enabled, route, agentPath, healthCheck, maxConnections,
                contexts, priority, backup, drain, domain);
    }

    /** In the group given: {@code newPriority} (null: the default), {@code newBackup} (null: not a backup node). */
    public NodeConfig withGroup(Integer newPriority, Boolean newBackup) {
        return new NodeConfig(name, address, weight, enabled, route, agentPath, healthCheck, maxConnections,
                contexts, newPriority, newBackup, drain, domain);
    }

    public NodeConfig withEnabled(boolean newEnabled) {
        return new NodeConfig(name, address, weight, newEnabled, route, agentPath, healthCheck, maxConnections,
                contexts, priority, backup, drain, domain);
    }
}
