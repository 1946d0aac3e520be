package io.loadwise.dispatcher.runtime;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.AdminConfig;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.ConfigValidator;
import io.loadwise.dispatcher.config.DrainMode;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.ClusterStatus;
import io.loadwise.dispatcher.control.ControlPlane;
import io.loadwise.dispatcher.control.NodeRegistration;
import io.loadwise.dispatcher.control.RegistrationReply;
import io.loadwise.dispatcher.control.ReloadResult;
import io.loadwise.dispatcher.control.ReplicaInfo;
import io.loadwise.dispatcher.metrics.CounterReading;
import io.loadwise.dispatcher.metrics.MetricsSnapshot;
import io.loadwise.dispatcher.monitor.AgentStats;
import io.loadwise.dispatcher.net.ConnectionBudget;
import io.loadwise.dispatcher.net.ConnectionLimit;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.store.ConfigSource;
import io.loadwise.dispatcher.store.FileConfigSource;
import io.loadwise.dispatcher.store.ReplicaHost;
import io.loadwise.policy.PolicyRegistry;
import java.net.InetSocketAddress;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running dispatcher: one listener per cluster on shared event loops, the node monitor (agents of
 * HTTP clusters), the metrics history and, when one is on the class path, the admin control plane.
 *
 * <p>This class starts and stops them and hands out the live runtime objects ({@link #clusters()},
 * {@link #agentStats}, ...) to the code that owns the dispatcher (the command line, tests). The clusters and
 * how a configuration becomes them are {@link LiveClusters}; views, edits, reloads and registrations are
 * {@link DispatcherControl}, which this class implements {@link ClusterControl} with: every change is
 * validated exactly like the file, written atomically, then applied; it is serialised, and the event loops
 * never wait for it.
 */
public final class Dispatcher implements ClusterControl, ReplicaHost, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);

    private final MetricsHistory history;
    private final ConnectionBudget budget;
    /** {@code maxClientConnections}: shared by every listener, kept across listener restarts. */
    private final ConnectionLimit clientConnections;
    private final LiveClusters clusters;
    private final DispatcherControl control;
    private ControlPlane controlPlane;

    /**
     * @param config a configuration that passed {@link ConfigValidator}
     * @param store where changes are persisted, or {@code null} to keep them in memory only
     */
    public Dispatcher(LoadwiseConfig config, ConfigStore store, PolicyRegistry policies, Transport transport,
            ListenerFactory listeners) {
        this(config, policies, transport, listeners, store == null ? null : new FileConfigSource(store));
    }

    /**
     * @param config a configuration that passed {@link ConfigValidator}
     * @param source where changes are persisted and reloads read from, or {@code null} to keep changes in
     *     memory only
     */
    public Dispatcher(LoadwiseConfig config, PolicyRegistry policies, Transport transport, ListenerFactory listeners,
            ConfigSource source) {
        this.budget = ConnectionBudget.resolve(config.maxClientConnections());
        this.clientConnections = new ConnectionLimit("dispatcher", budget.limit());
        this.clusters = new LiveClusters(config, policies, transport, listeners, clientConnections);
        this.history = new MetricsHistory(this::clusters);
        this.control = new DispatcherControl(clusters, policies, source, history);
    }

    /** Starts every cluster's listener, the metrics history and the control plane. */
    public void start(String adminToken, boolean withControlPlane) throws Exception {
        synchronized (clusters) {
            log.info("client connections: at most {} over all listeners", budget.describe());
            if (budget.exceedsDescriptors()) {
                log.warn("maxClientConnections {} can use more file descriptors than the limit of {} allows (each "
                        + "client connection may pair with a node connection); raise ulimit -n or lower it",
                        budget.limit(), budget.descriptorLimit());
            }
            try {
                clusters.startAll();
                history.start();
                if (withControlPlane) {
                    startControlPlane(adminToken);
                }
            } catch (Exception | Error e) {
                close();
                throw e;
            }
        }
    }

    private void startControlPlane(String adminToken) throws Exception {
        Iterator<ControlPlane> found = ServiceLoader.load(ControlPlane.class).iterator();
        if (!found.hasNext()) {
            log.info("no admin console on the class path; running without the admin API");
            return;
        }
        controlPlane = found.next();
        LoadwiseConfig config = clusters.config();
        AdminConfig admin = config.admin() == null ? new AdminConfig(null, null, null) : config.admin();
        controlPlane.start(this, admin, adminToken);
        log.info("admin console listening on port {}", controlPlane.port());
    }

    /** The control plane started, or {@code null}. */
    public ControlPlane controlPlane() {
        synchronized (clusters) {
            return controlPlane;
        }
    }

    /** The live clusters, in configuration order; the admin side reads {@link #clusterStatuses()}. */
    public List<VirtualCluster> clusters() {
        return clusters.clusters();
    }

    /** The live cluster with this name, or {@code null}; the admin side reads {@link #clusterStatus}. */
    public VirtualCluster cluster(String name) {
        for (VirtualCluster cluster : clusters.clusters()) {
            if (cluster.name().equals(name)) {
                return cluster;
            }
        }
        return null;
    }

    /**
     * The address a cluster's listener actually bound (the real port when configured as 0), or
     * {@code null} when the cluster is unknown or not listening.
     */
    public InetSocketAddress boundAddress(String cluster) {
        RunningCluster rc = clusters.published(cluster);
        return rc == null ? null : rc.listener().boundAddress();
    }

    @Override
    public Map<String, InetSocketAddress> listening() {
        Map<String, InetSocketAddress> bound = new LinkedHashMap<>();
        for (RunningCluster rc : clusters.published()) {
            InetSocketAddress address = rc.listener().boundAddress();
            if (address != null) {
                bound.put(rc.cluster().name(), address);
            }
        }
        return bound;
    }

    /**
     * The dispatcher-wide client-connection limit: connections open over every listener, the limit, and
     * how many were closed at accept because it was full. Per cluster, open connections are
     * {@code counters().activeConnections()} and rejections {@code counters().rejectedConnections()}.
     */
    public ConnectionLimit clientConnections() {
        return clientConnections;
    }

    /** The metrics history (tests sample it directly). */
    public MetricsHistory metricsHistory() {
        return history;
    }

    /** The node monitor's live figures of a node's agent, or {@code null} when it is not monitored. */
    public AgentStats agentStats(String cluster, String node) {
        VirtualCluster vc = cluster(cluster);
        NodeState state = vc == null ? null : vc.node(node);
        return state == null ? null : clusters.monitor().stats(state);
    }

    /** Cumulative counters of a cluster since start, or {@code null} when there is no such cluster. */
    public CounterReading totals(String cluster) {
        VirtualCluster vc = cluster(cluster);
        return vc == null ? null : vc.counters().read();
    }

    // ---- the control plane's view and commands: DispatcherControl ------------------------------------

    @Override
    public LoadwiseConfig config() {
        return control.config();
    }

    @Override
    public PolicyRegistry policies() {
        return control.policies();
    }

    @Override
    public List<io.loadwise.dispatcher.control.RoutedListenerStatus> listenerStatuses() {
        return RoutedStatusReader.listeners(clusters.routed());
    }

    @Override
    public List<io.loadwise.dispatcher.control.RateLimitStatus> rateLimitStatuses() {
        return RoutedStatusReader.rateLimits(clusters.routed(), clusters.config().rateLimitsOrEmpty());
    }

    @Override
    public io.loadwise.dispatcher.control.LatencyHistograms latencyHistograms() {
        return HistogramReader.read(clusters(), clusters.routed());
    }

    /** The address each of {@code listeners[]} bound, by name, in configuration order. */
    public java.util.Map<String, java.net.InetSocketAddress> routedListening() {
        java.util.Map<String, java.net.InetSocketAddress> bound = new java.util.LinkedHashMap<>();
        for (RoutedListeners.Running r : clusters.routed().published()) {
            bound.put(r.config().name(), r.listener().boundAddress());
        }
        return bound;
    }

    @Override
    public List<ClusterStatus> clusterStatuses() {
        return control.clusterStatuses();
    }

    @Override
    public ClusterStatus clusterStatus(String name) {
        return control.clusterStatus(name);
    }

    @Override
    public List<MetricsSnapshot> history(String cluster) {
        return control.history(cluster);
    }

    @Override
    public List<MetricsSnapshot> nodeHistory(String cluster, String node) {
        return control.nodeHistory(cluster, node);
    }

    @Override
    public void switchPolicy(String cluster, String policyId, Map<String, Double> options)
            throws ConfigValidationException {
        control.switchPolicy(cluster, policyId, options);
    }

    @Override
    public void updateNode(String cluster, String node, Boolean enabled, Integer weight, Boolean drain)
            throws ConfigValidationException {
        control.updateNode(cluster, node, enabled, weight, drain);
    }

    @Override
    public DrainMode drainNode(String cluster, String node, DrainMode mode, long deadlineMs, long sessionIdleMs)
            throws ConfigValidationException {
        return control.drainNode(cluster, node, mode, deadlineMs, sessionIdleMs);
    }

    @Override
    public void updateNodeGroup(String cluster, String node, Integer priority, Boolean backup)
            throws ConfigValidationException {
        control.updateNodeGroup(cluster, node, priority, backup);
    }

    @Override
    public void createCluster(ClusterConfig cluster) throws ConfigValidationException {
        control.createCluster(cluster);
    }

    @Override
    public void updateCluster(String name, ClusterConfig cluster) throws ConfigValidationException {
        control.updateCluster(name, cluster);
    }

    @Override
    public void deleteCluster(String name) throws ConfigValidationException {
        control.deleteCluster(name);
    }

    @Override
    public void replaceListeners(LoadwiseConfig base, List<io.loadwise.dispatcher.config.ListenerConfig> listeners,
            Map<String, io.loadwise.dispatcher.config.RateLimitConfig> rateLimits)
            throws ConfigValidationException {
        control.replaceListeners(base, listeners, rateLimits);
    }

    /**
     * Re-reads the configuration source (the file, or the file and etcd), validates it and applies the
     * difference ({@link #apply}). An invalid configuration changes nothing.
     */
    @Override
    public ReloadResult reload() throws ConfigValidationException {
        return control.reload();
    }

    /**
     * Makes {@code next} the configuration in force without dropping a connection or a request in flight:
     * new clusters start; removed ones drain (stop accepting, finish what is in flight, then close);
     * policy, option, weight and enabled-flag changes are applied in place; any other change rebuilds the
     * cluster, and the rebuilt one takes over the listening socket when the address and mode stay (the socket
     * is never closed), or binds its new address before the old listener drains. The configuration is not
     * written anywhere: this is for what the source already holds (a reload, a change another replica made).
     *
     * @throws ConfigValidationException when {@code next} is invalid or a new address cannot be bound; then
     *     nothing changed
     */
    public ReloadResult apply(LoadwiseConfig next) throws ConfigValidationException {
        return control.apply(next);
    }

    @Override
    public void applyShared(LoadwiseConfig next) throws ConfigValidationException {
        apply(next);
    }

    @Override
    public RegistrationReply register(String cluster, NodeRegistration registration) {
        return control.register(cluster, registration);
    }

    @Override
    public void deregister(String cluster, String node) {
        control.deregister(cluster, node);
    }

    @Override
    public List<ReplicaInfo> replicas() {
        return control.replicas();
    }

    @Override
    public String replicaId() {
        return control.replicaId();
    }

    /**
     * Makes this dispatcher one replica of a shared store: its id, and where {@link #replicas()} comes from
     * (the etcd replica registry).
     */
    @Override
    public void setReplica(String id, Supplier<List<ReplicaInfo>> lister) {
        control.setReplica(id, lister);
    }

    // ---- stopping ------------------------------------------------------------------------------------

    /**
     * The first step of a graceful shutdown: every listener stops accepting and closes its listening
     * socket; connections already open carry on (see {@link #inFlight()}) until {@link #close()}. This is
     * the drain a reload retires a listener with
     * ({@link io.loadwise.dispatcher.net.ClusterListener#drain()}), so an HTTP connection
     * also answers its last request with {@code Connection: close} and closes after it, instead of idling
     * until the process exits.
     */
    public void stopAccepting() {
        int listeners = clusters.stopAccepting();
        log.info("stopped accepting connections on {} listeners", listeners);
    }

    /**
     * Work a graceful shutdown waits for: HTTP requests in progress, and open TCP tunnels (a TCP cluster
     * cannot tell a request from an idle connection). Idle HTTP keep-alive connections do not count.
     */
    public int inFlight() {
        int total = 0;
        for (VirtualCluster cluster : clusters.clusters()) {
            total += cluster.config().mode() == Mode.TCP
                    ? cluster.counters().activeConnections() : cluster.counters().activeRequests();
        }
        return total;
    }

    /** Stops the control plane, the history and every listener. Idempotent. */
    @Override
    public void close() {
        synchronized (clusters) {
            if (clusters.closed()) {
                return;
            }
            control.close();
            if (controlPlane != null) {
                try {
                    controlPlane.close();
                } catch (RuntimeException e) {
                    log.warn("closing the admin console failed", e);
                }
            }
            history.close();
            clusters.close();
        }
    }
}
