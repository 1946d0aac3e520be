package io.loadwise.dispatcher.control;

import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.metrics.CounterReading;
import io.loadwise.dispatcher.metrics.MetricsSnapshot;
import io.loadwise.policy.PolicyRegistry;
import java.util.List;
import java.util.Map;

/**
 * Everything the REST API and the console may do to a running dispatcher. Reads return live runtime
 * objects or immutable copies; every change is validated exactly like the config file and, for
 * configuration changes, persisted atomically before it takes effect. A change that fails validation
 * throws {@link ConfigValidationException} and leaves the running configuration untouched.
 */
public interface ClusterControl {

    /** The configuration in force (as last written). */
    LoadwiseConfig config();

    PolicyRegistry policies();

    List<VirtualCluster> clusters();

    /** The running cluster with this name, or {@code null}. */
    VirtualCluster cluster(String name);

    /**
     * The address a cluster's listener actually bound (the real port when configured as 0), or
     * {@code null} when the cluster is unknown or not listening.
     */
    default java.net.InetSocketAddress boundAddress(String cluster) {
        return null;
    }

    /** Per-second Table 2 figures of a cluster, oldest first, up to one hour. */
    List<MetricsSnapshot> history(String cluster);

    /** Per-second Table 2 figures of one node, oldest first, up to one hour. */
    List<MetricsSnapshot> nodeHistory(String cluster, String node);

    /**
     * What the node monitor knows about a node's agent (seed Table 6: NODE_NMA_RSPS_TIME,
     * NODE_AVAILABILITY%, reports ignored), or {@code null} when the node is not monitored.
     */
    default io.loadwise.dispatcher.monitor.AgentStats agentStats(String cluster, String node) {
        return null;
    }

    /**
     * Session-affinity hits and misses of an HTTP cluster since its listener started, or {@code null}
     * for a TCP cluster or an unknown one.
     */
    default io.loadwise.dispatcher.http.AffinityCounters affinityCounters(String cluster) {
        return null;
    }

    /**
     * The dispatcher-wide client-connection limit ({@code maxClientConnections}): open connections over
     * every listener, the limit and rejections; {@code null} when there is none.
     */
    default io.loadwise.dispatcher.net.ConnectionLimit clientConnections() {
        return null;
    }

    /** Cumulative counters of a cluster since start. */
    CounterReading totals(String cluster);

    /** Switches a cluster's policy live and persists it. */
    void switchPolicy(String cluster, String policyId, Map<String, Double> options) throws ConfigValidationException;

    /**
     * Changes a node's runtime flags; any argument may be {@code null} (unchanged). {@code enabled} and
     * {@code weight} are persisted; {@code drain} is runtime-only.
     */
    void updateNode(String cluster, String node, Boolean enabled, Integer weight, Boolean drain)
            throws ConfigValidationException;

    void createCluster(ClusterConfig cluster) throws ConfigValidationException;

    /** Replaces a cluster's configuration; its listener restarts if mode or listen changed. */
    void updateCluster(String name, ClusterConfig cluster) throws ConfigValidationException;

    void deleteCluster(String name) throws ConfigValidationException;
}
