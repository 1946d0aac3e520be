package io.loadwise.dispatcher.control;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.ListenerConfig;
import io.loadwise.dispatcher.config.ListenerEdits;
import io.loadwise.dispatcher.config.DrainMode;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.RateLimitConfig;
import io.loadwise.dispatcher.logging.AccessLog;
import io.loadwise.dispatcher.metrics.MetricsSnapshot;
import io.loadwise.policy.PolicyRegistry;
import java.util.List;
import java.util.Map;

/**
 * Everything the REST API and the console may do to a running dispatcher: read immutable views, and
 * give commands. No runtime object crosses this boundary, so the admin side can neither change the
 * dispatcher behind its back nor hold on to state that the event loops keep writing.
 *
 * <p>A view is built when it is asked for, at a cost proportional to the cluster's nodes: for API calls
 * and once-a-second work, never per proxied request.
 *
 * <p>Every command is validated exactly like the config file and, for configuration changes, persisted
 * atomically before it takes effect. A command that fails validation throws
 * {@link ConfigValidationException} and leaves the running configuration untouched.
 */
public interface ClusterControl {

    /** The latency histograms of every cluster, node and route now; none where they are not kept. */
    default LatencyHistograms latencyHistograms() {
        return LatencyHistograms.NONE;
    }

    /** Access-log records dropped because the log's writer fell behind; 0 without an access log. */
    default long accessLogDropped() {
        return AccessLog.dropped();
    }

    /**
     * Makes the dispatcher keep its last {@value io.loadwise.dispatcher.logging.RecentRequests#CAPACITY} requests
     * for {@link #recentRequests()}, with or without an access log, for the next
     * {@value io.loadwise.dispatcher.logging.AccessLog#RECENT_LEASE_MILLIS} ms: the console calls it at every
     * {@code GET /api/requests}.
     */
    default void keepRecentRequests() {
        AccessLog.keepRecent();
    }

    /** The last requests, newest first; empty unless {@link #keepRecentRequests()} was called. */
    default List<io.loadwise.dispatcher.logging.RecentRequest> recentRequests() {
        return AccessLog.recent().newestFirst();
    }

    /** Per TLS listener with {@code acme}: certificates issued, failed orders, expiry of the one served. */
    default java.util.Map<String, io.loadwise.dispatcher.acme.AcmeStatus.Figures> acmeStatus() {
        return io.loadwise.dispatcher.acme.AcmeStatus.figures();
    }

    /** Tracing as it runs: its collector, ratio and export counters (issue 33, item 3). */
    default TracingStatus tracing() {
        return TracingStatus.current();
    }

    /** The configuration in force (as last written). */
    LoadwiseConfig config();

    PolicyRegistry policies();

    /** Every running cluster, in configuration order, as it is now. */
    List<ClusterStatus> clusterStatuses();

    /** The running cluster with this name as it is now, or {@code null}. */
    ClusterStatus clusterStatus(String name);

    /** Per-second Table 2 figures of a cluster, oldest first, up to one hour. */
    List<MetricsSnapshot> history(String cluster);

    /** Per-second Table 2 figures of one node, oldest first, up to one hour. */
    List<MetricsSnapshot> nodeHistory(String cluster, String node);

    /** Switches a cluster's policy live and persists it. */
    void switchPolicy(String cluster, String policyId, Map<String, Double> options) throws ConfigValidationException;

    /**
     * Changes a node's runtime flags; any argument may be {@code null} (unchanged). {@code enabled} and
     * {@code weight} are persisted; {@code drain} is runtime-only.
     */
    void updateNode(String cluster, String node, Boolean enabled, Integer weight, Boolean drain)
            throws ConfigValidationException;

    /**
     * Starts, switches or ends a node's drain, runtime-only: {@link DrainMode#IMMEDIATE} ({@code "drain": true})
     * takes no new work at all; {@link DrainMode#SESSIONS} keeps the requests pinned to the node until its
     * sessions are gone; {@link DrainMode#NONE} ends a drain. A drain already in {@code mode} goes on unchanged.
     *
     * @param deadlineMs session drain: the longest wait, 0 for none; after it the node drains as {@code true}
     * @param sessionIdleMs session drain without the agent's session count: how long no pinned request must
     *     arrive; at least 1
     * @return the mode before, so a caller can say it switched modes
     * @throws ConfigValidationException no such cluster or node, or a bad argument, each named
     */
    DrainMode drainNode(String cluster, String node, DrainMode mode, long deadlineMs, long sessionIdleMs)
            throws ConfigValidationException;

    /**
     * Moves a node to another priority group, live and persisted: {@code priority} (null: unchanged), or the
     * backup group ({@code backup} true, which drops the node's priority: a backup node has none).
     */
    void updateNodeGroup(String cluster, String node, Integer priority, Boolean backup)
            throws ConfigValidationException;

    void createCluster(ClusterConfig cluster) throws ConfigValidationException;

    /** Replaces a cluster's configuration; its listener restarts if mode or listen changed. */
    void updateCluster(String name, ClusterConfig cluster) throws ConfigValidationException;

    void deleteCluster(String name) throws ConfigValidationException;

    /**
     * Makes {@code listeners} and {@code rateLimits} ({@code null} for none) the ones in force, validated and
     * persisted like every change, provided the configuration in force still equals {@code base} (what
     * {@link #config()} returned when the change was computed).
     *
     * @throws ConfigConflictException when the configuration changed since {@code base}: nothing is changed, so
     *     a concurrent edit is never lost (read it again and repeat)
     */
    default void replaceListeners(LoadwiseConfig base, List<ListenerConfig> listeners,
            Map<String, RateLimitConfig> rateLimits) throws ConfigValidationException {
        throw new ConfigValidationException("listeners cannot be edited here");
    }

    /** Adds one of {@code listeners[]}, validated and persisted; it binds its port at once. */
    default void createListener(ListenerConfig listener) throws ConfigValidationException {
        LoadwiseConfig base = config();
        replaceListeners(base, ListenerEdits.add(base, listener));
    }

    /**
     * Replaces the listener with this name (its route table is swapped atomically; the port is kept when
     * {@code listen} and TLS stay).
     */
    default void updateListener(String name, ListenerConfig listener) throws ConfigValidationException {
        LoadwiseConfig base = config();
        replaceListeners(base, ListenerEdits.replace(base, name, listener));
    }

    /** Removes a listener: it stops accepting; connections already open finish on their own. */
    default void deleteListener(String name) throws ConfigValidationException {
        LoadwiseConfig base = config();
        replaceListeners(base, ListenerEdits.remove(base, name));
    }

    /** Replaces the whole {@code rateLimits} object, validated and persisted. */
    default void updateRateLimits(Map<String, RateLimitConfig> limits) throws ConfigValidationException {
        LoadwiseConfig base = config();
        replaceListeners(base, base.listeners(), limits.isEmpty() ? null : limits);
    }

    private void replaceListeners(LoadwiseConfig base, LoadwiseConfig next) throws ConfigValidationException {
        replaceListeners(base, next.listeners(), next.rateLimits());
    }

    /**
     * Re-reads the configuration (the file, or the file and etcd), validates it and applies the difference
     * without dropping a connection or a request in flight. An invalid configuration changes nothing and
     * throws with the validator's messages.
     */
    default ReloadResult reload() throws ConfigValidationException {
        throw new ConfigValidationException("reload is not supported here");
    }

    /**
     * Registers a node with a cluster that takes registrations, or renews its registration (a heartbeat). The
     * node is added to the running cluster, never to the configuration file, and removed when no heartbeat
     * comes within the cluster's {@code registration.ttlMs}.
     *
     * @throws RegistrationRefusedException with the status to answer
     */
    default RegistrationReply register(String cluster, NodeRegistration registration) {
        throw new RegistrationRefusedException(404, "registration is not supported here");
    }

    /**
     * Deregisters a registered node: it drains at once (takes no new request) and is removed when its requests
     * in flight have finished, or after the registration's TTL at the latest.
     *
     * @throws RegistrationRefusedException 404 when the cluster or the registered node is unknown
     */
    default void deregister(String cluster, String node) {
        throw new RegistrationRefusedException(404, "registration is not supported here");
    }

    /** The ports of {@code listeners[]} with their route tables and counters; none by default. */
    default List<RoutedListenerStatus> listenerStatuses() {
        return List.of();
    }

    /** The named rate limits with their key tables; none by default. */
    default List<RateLimitStatus> rateLimitStatuses() {
        return List.of();
    }

    /**
     * The live replicas that share this configuration store, this one included; with the file as the
     * store, just this one.
     *
     * @throws ConfigUnavailableException when the shared store cannot be reached
     */
    default List<ReplicaInfo> replicas() {
        return List.of();
    }

    /**
     * This replica's id in a shared store (the {@code replica} label of every Prometheus series), or
     * {@code null} with the file.
     */
    default String replicaId() {
        return null;
    }
}
