package io.loadwise.dispatcher.runtime;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.AdminConfig;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.ConfigValidator;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.ClusterStatus;
import io.loadwise.dispatcher.control.ControlPlane;
import io.loadwise.dispatcher.metrics.CounterReading;
import io.loadwise.dispatcher.metrics.MetricsSnapshot;
import io.loadwise.dispatcher.monitor.AgentStats;
import io.loadwise.dispatcher.monitor.NodeMonitor;
import io.loadwise.dispatcher.net.ConnectionBudget;
import io.loadwise.dispatcher.net.ConnectionLimit;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.policy.PolicyOptions;
import io.loadwise.policy.PolicyRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running dispatcher: one listener per cluster on shared event loops, the node monitor (agents of
 * HTTP clusters), the metrics history and, when one is on the class path, the admin control plane.
 *
 * <p>Every change goes the same way: build the whole new configuration, validate it exactly like the
 * file, write it atomically, then apply it. Validation failures change nothing; a listener that cannot
 * bind rolls the file and the runtime back to the previous configuration. Changes are serialised on this
 * object; the event loops never wait for it.
 *
 * <p>The admin side sees it only as {@link ClusterControl}: views and commands. The live runtime objects
 * ({@link #clusters()}, {@link #agentStats}, ...) are for the code that owns the dispatcher (the command
 * line, tests).
 */
public final class Dispatcher implements ClusterControl, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);

    private final PolicyRegistry policies;
    private final ConfigValidator validator;
    private final ConfigStore store;
    private final Transport transport;
    private final ListenerFactory listeners;
    private final MetricsHistory history;
    private final ConnectionBudget budget;
    /** {@code maxClientConnections}: shared by every listener, kept across listener restarts. */
    private final ConnectionLimit clientConnections;
    private final NodeMonitor monitor = new NodeMonitor();
    private final Map<String, RunningCluster> running = new LinkedHashMap<>();

    private volatile LoadwiseConfig config;
    /** What {@link #running} held at the last {@link #publish()}: read without the lock. */
    private volatile List<RunningCluster> published = List.of();
    private volatile List<VirtualCluster> clusterList = List.of();
    private ControlPlane controlPlane;
    private boolean closed;

    /**
     * @param config a configuration that passed {@link ConfigValidator}
     * @param store where changes are persisted, or {@code null} to keep them in memory only
     */
    public Dispatcher(LoadwiseConfig config, ConfigStore store, PolicyRegistry policies, Transport transport,
            ListenerFactory listeners) {
        this.config = config;
        this.store = store;
        this.policies = policies;
        this.validator = new ConfigValidator(policies);
        this.transport = transport;
        this.listeners = listeners;
        this.history = new MetricsHistory(this::clusters);
        this.budget = ConnectionBudget.resolve(config.maxClientConnections());
        this.clientConnections = new ConnectionLimit("dispatcher", budget.limit());
    }

    /** Starts every cluster's listener, the metrics history and the control plane. */
    public synchronized void start(String adminToken, boolean withControlPlane) throws Exception {
        log.info("client connections: at most {} over all listeners", budget.describe());
        if (budget.exceedsDescriptors()) {
            log.warn("maxClientConnections {} can use more file descriptors than the limit of {} allows (each "
                    + "client connection may pair with a node connection); raise ulimit -n or lower it",
                    budget.limit(), budget.descriptorLimit());
        }
        try {
            for (ClusterConfig cluster : config.clustersOrEmpty()) {
                running.put(cluster.name(), launch(cluster));
            }
            publish();
            history.start();
            if (withControlPlane) {
                startControlPlane(adminToken);
            }
        } catch (Exception | Error e) {
            close();
            throw e;
        }
    }

    private void startControlPlane(String adminToken) throws Exception {
        Iterator<ControlPlane> found = ServiceLoader.load(ControlPlane.class).iterator();
        if (!found.hasNext()) {
            log.info("no admin console on the class path; running without the admin API");
            return;
        }
        controlPlane = found.next();
        AdminConfig admin = config.admin() == null ? new AdminConfig(null, null, null) : config.admin();
        controlPlane.start(this, admin, adminToken);
        log.info("admin console listening on port {}", controlPlane.port());
    }

    /** The control plane started, or {@code null}. */
    public synchronized ControlPlane controlPlane() {
        return controlPlane;
    }

    private RunningCluster launch(ClusterConfig cluster) throws IOException {
        VirtualCluster vc = new VirtualCluster(cluster, policies, System::nanoTime);
        return RunningCluster.start(vc, listeners, transport, clientConnections, monitor);
    }

    private void publish() {
        List<VirtualCluster> list = new ArrayList<>();
        for (RunningCluster rc : running.values()) {
            list.add(rc.cluster());
        }
        published = List.copyOf(running.values());
        clusterList = List.copyOf(list);
    }

    @Override
    public LoadwiseConfig config() {
        return config;
    }

    @Override
    public PolicyRegistry policies() {
        return policies;
    }

    @Override
    public List<ClusterStatus> clusterStatuses() {
        List<ClusterStatus> statuses = new ArrayList<>();
        for (RunningCluster rc : published) {
            statuses.add(status(rc));
        }
        return statuses;
    }

    @Override
    public ClusterStatus clusterStatus(String name) {
        RunningCluster rc = runningCluster(name);
        return rc == null ? null : status(rc);
    }

    private ClusterStatus status(RunningCluster rc) {
        VirtualCluster cluster = rc.cluster();
        ClusterConfig inForce = cluster.config();
        for (ClusterConfig c : config.clustersOrEmpty()) {
            if (c.name().equals(cluster.name())) {
                inForce = c;
                break;
            }
        }
        return StatusReader.cluster(rc, inForce, monitor);
    }

    private RunningCluster runningCluster(String name) {
        for (RunningCluster rc : published) {
            if (rc.cluster().name().equals(name)) {
                return rc;
            }
        }
        return null;
    }

    /** The live clusters, in configuration order; the admin side reads {@link #clusterStatuses()}. */
    public List<VirtualCluster> clusters() {
        return clusterList;
    }

    /** The live cluster with this name, or {@code null}; the admin side reads {@link #clusterStatus}. */
    public VirtualCluster cluster(String name) {
        for (VirtualCluster cluster : clusterList) {
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
        RunningCluster rc = runningCluster(cluster);
        return rc == null ? null : rc.listener().boundAddress();
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

    @Override
    public List<MetricsSnapshot> history(String cluster) {
        return history.history(cluster);
    }

    @Override
    public List<MetricsSnapshot> nodeHistory(String cluster, String node) {
        return history.nodeHistory(cluster, node);
    }

    /** The node monitor's live figures of a node's agent, or {@code null} when it is not monitored. */
    public AgentStats agentStats(String cluster, String node) {
        VirtualCluster vc = cluster(cluster);
        NodeState state = vc == null ? null : vc.node(node);
        return state == null ? null : monitor.stats(state);
    }

    /** Cumulative counters of a cluster since start, or {@code null} when there is no such cluster. */
    public CounterReading totals(String cluster) {
        VirtualCluster vc = cluster(cluster);
        return vc == null ? null : vc.counters().read();
    }

    @Override
    public synchronized void switchPolicy(String cluster, String policyId, Map<String, Double> options)
            throws ConfigValidationException {
        int index = indexOf(cluster);
        ClusterConfig old = config.clustersOrEmpty().get(index);
        ClusterConfig changed = ClusterEdits.withPolicy(old, policyId, options);
        LoadwiseConfig next = ClusterEdits.replace(config, index, changed);
        commit(next);
        applyLive(running.get(cluster).cluster(), old, changed);
    }

    @Override
    public synchronized void updateNode(String cluster, String node, Boolean enabled, Integer weight, Boolean drain)
            throws ConfigValidationException {
        int index = indexOf(cluster);
        VirtualCluster vc = running.get(cluster).cluster();
        NodeState state = vc.node(node);
        if (state == null) {
            throw new ConfigValidationException("cluster '" + cluster + "': no node named '" + node + "'");
        }
        ClusterConfig old = config.clustersOrEmpty().get(index);
        if (enabled != null || weight != null) {
            ClusterConfig changed = ClusterEdits.withNode(old, node, enabled, weight);
            commit(ClusterEdits.replace(config, index, changed));
            applyLive(vc, old, changed);
        }
        if (drain != null) {
            vc.setDraining(state, drain);
        }
    }

    @Override
    public synchronized void createCluster(ClusterConfig cluster) throws ConfigValidationException {
        List<ClusterConfig> list = new ArrayList<>(config.clustersOrEmpty());
        list.add(cluster);
        LoadwiseConfig previous = config;
        commit(previous.withClusters(list));
        try {
            running.put(cluster.name(), launch(cluster));
        } catch (IOException | RuntimeException e) {
            rollBack(previous);
            throw new ConfigValidationException("clusters[" + (list.size() - 1) + "].listen: " + e.getMessage());
        }
        publish();
        log.info("cluster {} created", cluster.name());
    }

    @Override
    public synchronized void updateCluster(String name, ClusterConfig cluster) throws ConfigValidationException {
        int index = indexOf(name);
        ClusterConfig changed = cluster.name() == null ? ClusterEdits.withName(cluster, name) : cluster;
        ClusterConfig old = config.clustersOrEmpty().get(index);
        LoadwiseConfig previous = config;
        commit(ClusterEdits.replace(previous, index, changed));
        RunningCluster current = running.get(name);
        if (ClusterEdits.liveApplicable(old, changed)) {
            applyLive(current.cluster(), old, changed);
            return;
        }
        current.close(monitor);
        running.remove(name);
        try {
            running.put(changed.name(), launch(changed));
        } catch (IOException | RuntimeException e) {
            String message = "clusters[" + index + "].listen: " + e.getMessage();
            rollBack(previous);
            try {
                running.put(name, RunningCluster.start(current.cluster(), listeners, transport, clientConnections,
                        monitor));
            } catch (IOException | RuntimeException again) {
                log.error("cluster {}: could not restart the previous listener either", name, again);
            }
            rebuildOrder(previous);
            publish();
            throw new ConfigValidationException(message);
        }
        rebuildOrder(config);
        publish();
        log.info("cluster {} reconfigured and restarted", changed.name());
    }

    @Override
    public synchronized void deleteCluster(String name) throws ConfigValidationException {
        int index = indexOf(name);
        List<ClusterConfig> list = new ArrayList<>(config.clustersOrEmpty());
        list.remove(index);
        commit(config.withClusters(list));
        running.remove(name).close(monitor);
        publish();
        log.info("cluster {} deleted", name);
    }

    /** Validates, persists and adopts {@code next} as the configuration in force. */
    private void commit(LoadwiseConfig next) throws ConfigValidationException {
        validator.check(next);
        if (store != null) {
            try {
                store.write(next);
            } catch (IOException e) {
                throw new ConfigValidationException("cannot write " + store.file() + ": " + e.getMessage());
            }
        }
        config = next;
    }

    private void rollBack(LoadwiseConfig previous) {
        config = previous;
        if (store != null) {
            try {
                store.write(previous);
            } catch (IOException e) {
                log.error("cannot restore {} after a failed change", store.file(), e);
            }
        }
    }

    private void applyLive(VirtualCluster vc, ClusterConfig old, ClusterConfig changed) {
        if (!changed.policy().equals(old.policy()) || !changed.policyOptionsOrEmpty().equals(old.policyOptionsOrEmpty())) {
            vc.switchPolicy(policies.get(changed.policy()), PolicyOptions.of(changed.policyOptionsOrEmpty()));
        }
        List<NodeConfig> nodes = changed.nodesOrEmpty();
        for (int i = 0; i < nodes.size(); i++) {
            NodeState state = vc.nodes().get(i);
            NodeConfig node = nodes.get(i);
            if (state.weight() != node.weightOrDefault()) {
                vc.setWeight(state, node.weightOrDefault());
            }
            if (state.configuredEnabled() != node.enabledOrDefault()) {
                vc.setEnabled(state, node.enabledOrDefault());
            }
        }
        vc.updateConfig(changed);
    }

    /** Keeps {@link #clusters()} in configuration order after a cluster was replaced. */
    private void rebuildOrder(LoadwiseConfig order) {
        Map<String, RunningCluster> copy = new LinkedHashMap<>(running);
        running.clear();
        for (ClusterConfig c : order.clustersOrEmpty()) {
            RunningCluster rc = copy.remove(c.name());
            if (rc != null) {
                running.put(c.name(), rc);
            }
        }
        running.putAll(copy);
    }

    private int indexOf(String name) throws ConfigValidationException {
        List<ClusterConfig> list = config.clustersOrEmpty();
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new ConfigValidationException("cluster '" + name + "': no such cluster");
    }

    /** Stops the control plane, the history and every listener. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (controlPlane != null) {
            try {
                controlPlane.close();
            } catch (RuntimeException e) {
                log.warn("closing the admin console failed", e);
            }
        }
        history.close();
        for (RunningCluster rc : running.values()) {
            rc.close(monitor);
        }
        monitor.close();
        running.clear();
        publish();
    }
}
