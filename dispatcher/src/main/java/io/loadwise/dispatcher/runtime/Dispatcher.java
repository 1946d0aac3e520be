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
import io.loadwise.dispatcher.control.NodeRegistration;
import io.loadwise.dispatcher.control.RegistrationRefusedException;
import io.loadwise.dispatcher.control.RegistrationReply;
import io.loadwise.dispatcher.control.ReloadResult;
import io.loadwise.dispatcher.http.HttpProxyServer;
import io.loadwise.dispatcher.metrics.CounterReading;
import io.loadwise.dispatcher.metrics.MetricsSnapshot;
import io.loadwise.dispatcher.monitor.AgentStats;
import io.loadwise.dispatcher.monitor.NodeMonitor;
import io.loadwise.dispatcher.net.ConnectionBudget;
import io.loadwise.dispatcher.net.ConnectionLimit;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.registration.NodeRegistry;
import io.loadwise.dispatcher.store.ConfigSource;
import io.loadwise.dispatcher.store.FileConfigSource;
import io.loadwise.policy.PolicyOptions;
import io.loadwise.policy.PolicyRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.ServiceLoader;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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
    /** Where changes are written and reloads read from; {@code null}: in memory only. */
    private final ConfigSource source;
    private final Transport transport;
    private final ListenerFactory listeners;
    private final MetricsHistory history;
    private final ConnectionBudget budget;
    /** {@code maxClientConnections}: shared by every listener, kept across listener restarts. */
    private final ConnectionLimit clientConnections;
    private final NodeMonitor monitor = new NodeMonitor();
    private final Resilience resilience = new Resilience(System::nanoTime, System::currentTimeMillis);
    private final Map<String, RunningCluster> running = new LinkedHashMap<>();

    private volatile LoadwiseConfig config;
    /** Nodes that registered themselves; {@link #running} runs {@link #config} with them ({@link #effective}). */
    private final NodeRegistry registry = new NodeRegistry(System::nanoTime);
    /** What the clusters run: {@link #config} with the registered nodes added; never written anywhere. */
    private LoadwiseConfig effective;
    /** Removes lapsed and drained registrations; started with the first registration. */
    private ScheduledExecutorService registrationSweeper;
    /** What {@link #running} held at the last {@link #publish()}: read without the lock. */
    private volatile List<RunningCluster> published = List.of();
    private volatile List<VirtualCluster> clusterList = List.of();
    private ControlPlane controlPlane;
    private volatile String replicaId;
    /** The live replicas of a shared store; none with the file. */
    private volatile java.util.function.Supplier<List<io.loadwise.dispatcher.control.ReplicaInfo>> replicaLister = List::of;
    private boolean closed;

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
        this.config = config;
        this.effective = config;
        this.source = source;
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
                running.put(cluster.name(), launch(cluster, null));
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

    /** Starts a cluster on a new socket, or on {@code previous}'s when not {@code null}. */
    private RunningCluster launch(ClusterConfig cluster, RunningCluster previous) throws IOException {
        VirtualCluster vc = new VirtualCluster(cluster, policies, System::nanoTime);
        return RunningCluster.start(vc, previous, listeners, transport, clientConnections, monitor, resilience);
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
        Set<String> registered;
        synchronized (registry) {
            registered = registry.names(cluster.name());
        }
        return StatusReader.cluster(rc, inForce, monitor, registered);
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
        ClusterConfig changed = ClusterEdits.withPolicy(config.clustersOrEmpty().get(index), policyId, options);
        change(ClusterEdits.replace(config, index, changed));
    }

    @Override
    public synchronized void updateNode(String cluster, String node, Boolean enabled, Integer weight, Boolean drain)
            throws ConfigValidationException {
        int index = indexOf(cluster);
        if (running.get(cluster).cluster().node(node) == null) {
            throw new ConfigValidationException("cluster '" + cluster + "': no node named '" + node + "'");
        }
        if (enabled != null || weight != null) {
            ClusterConfig old = config.clustersOrEmpty().get(index);
            change(ClusterEdits.replace(config, index, ClusterEdits.withNode(old, node, enabled, weight)));
        }
        if (drain != null) {
            VirtualCluster vc = running.get(cluster).cluster();
            vc.setDraining(vc.node(node), drain);
        }
    }

    @Override
    public synchronized void updateNodeGroup(String cluster, String node, Integer priority, Boolean backup)
            throws ConfigValidationException {
        int index = indexOf(cluster);
        ClusterConfig old = config.clustersOrEmpty().get(index);
        change(ClusterEdits.replace(config, index, ClusterEdits.withNodeGroup(old, node, priority, backup)));
    }

    @Override
    public synchronized void createCluster(ClusterConfig cluster) throws ConfigValidationException {
        List<ClusterConfig> list = new ArrayList<>(config.clustersOrEmpty());
        list.add(cluster);
        change(config.withClusters(list));
    }

    @Override
    public synchronized void updateCluster(String name, ClusterConfig cluster) throws ConfigValidationException {
        int index = indexOf(name);
        ClusterConfig changed = cluster.name() == null ? ClusterEdits.withName(cluster, name) : cluster;
        change(ClusterEdits.replace(config, index, changed));
    }

    @Override
    public synchronized void deleteCluster(String name) throws ConfigValidationException {
        int index = indexOf(name);
        List<ClusterConfig> list = new ArrayList<>(config.clustersOrEmpty());
        list.remove(index);
        change(config.withClusters(list));
    }

    /**
     * Re-reads the configuration source (the file, or the file and etcd), validates it and applies the
     * difference ({@link #apply}). An invalid configuration changes nothing.
     */
    @Override
    public synchronized ReloadResult reload() throws ConfigValidationException {
        if (source == null) {
            throw new ConfigValidationException("no configuration file to reload from (the dispatcher was started"
                    + " without one)");
        }
        LoadwiseConfig next;
        try {
            next = source.read();
            validator.check(next);
        } catch (ConfigValidationException e) {
            log.error("reload of {} refused, the configuration in force is kept: {}", source.describe(),
                    String.join("; ", e.errors()));
            throw e;
        }
        ReloadResult result = applyChecked(next);
        recheckCertificates();
        log.info("reloaded {}: {}", source.describe(), result.summary());
        return result;
    }

    /**
     * A reload also re-reads the certificate files of every TLS listener it kept, at once rather than at its
     * watcher's next check: a certificate replaced on disk is served from the next new connection, and open
     * connections keep their session. (The validator has just loaded the same files, so a pair that does not
     * match refused the reload before this point.)
     */
    private void recheckCertificates() {
        for (RunningCluster rc : running.values()) {
            if (rc.listener() instanceof HttpProxyServer http && http.tls() != null) {
                http.tls().checkFiles();
            }
        }
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
    public synchronized ReloadResult apply(LoadwiseConfig next) throws ConfigValidationException {
        validator.check(next);
        return applyChecked(next);
    }

    /** Validates, persists and applies {@code next}; a failed apply restores what was persisted. */
    private void change(LoadwiseConfig next) throws ConfigValidationException {
        validator.check(next);
        LoadwiseConfig previous = config;
        if (source != null) {
            source.write(previous, next);
        }
        ReloadResult result;
        try {
            result = applyChecked(next);
        } catch (ConfigValidationException | RuntimeException e) {
            restore(next, previous);
            throw e;
        }
        if (!result.failed().isEmpty()) {
            throw new ConfigValidationException(result.failed());
        }
    }

    private void restore(LoadwiseConfig written, LoadwiseConfig previous) {
        if (source == null) {
            return;
        }
        try {
            source.write(written, previous);
        } catch (ConfigValidationException | RuntimeException e) {
            log.error("cannot restore {} after a failed change: {}", source.describe(), e.getMessage());
        }
    }

    private ReloadResult applyChecked(LoadwiseConfig next) throws ConfigValidationException {
        if (closed) {
            throw new ConfigValidationException("the dispatcher is stopped");
        }
        LoadwiseConfig nextEffective;
        synchronized (registry) {
            nextEffective = registry.overlay(next);
        }
        ReloadPlan plan = ReloadPlan.between(effective, nextEffective);
        Map<String, RunningCluster> started = new LinkedHashMap<>();
        for (ClusterConfig cluster : plan.freshBinds()) {
            try {
                started.put(cluster.name(), launch(cluster, null));
            } catch (IOException | RuntimeException e) {
                for (RunningCluster rc : started.values()) {
                    rc.close(monitor, resilience);
                }
                throw new ConfigValidationException("clusters[" + plan.indexInNext(cluster.name()) + "].listen: "
                        + e.getMessage());
            }
        }
        // Nothing below can be refused any more: sockets are handed over, or bound after their holder left.
        List<String> failed = new ArrayList<>();
        for (Map.Entry<ClusterConfig, String> heir : plan.takeOvers().entrySet()) {
            RunningCluster previous = running.get(heir.getValue());
            try {
                started.put(heir.getKey().name(), launch(heir.getKey(), previous));
            } catch (IOException | RuntimeException e) {
                log.error("cluster {}: could not take over the listener of {}: {}", heir.getKey().name(),
                        heir.getValue(), e.getMessage());
                failed.add("clusters[" + plan.indexInNext(heir.getKey().name()) + "].listen: " + e.getMessage());
            }
        }
        for (String name : plan.retired()) {
            RunningCluster rc = running.remove(name);
            rc.drain(monitor, resilience);
            log.info("cluster {}: draining its connections ({})", name, plan.removedNames().contains(name)
                    ? "removed" : "replaced");
        }
        for (ClusterConfig cluster : plan.bindsAfterRetiring()) {
            try {
                started.put(cluster.name(), launch(cluster, null));
            } catch (IOException | RuntimeException e) {
                log.error("cluster {}: could not bind {} after its previous listener left: {}", cluster.name(),
                        cluster.listen(), e.getMessage());
                failed.add("clusters[" + plan.indexInNext(cluster.name()) + "].listen: " + e.getMessage());
            }
        }
        for (ClusterConfig[] change : plan.liveChanges()) {
            applyLive(running.get(change[1].name()).cluster(), change[0], change[1]);
        }
        running.putAll(started);
        rebuildOrder(nextEffective);
        config = next;
        effective = nextEffective;
        publish();
        drainLeaving();
        ReloadResult result = plan.result(failed);
        if (!result.restartNeeded().isEmpty()) {
            log.warn("configuration: {} changed; that takes effect at the next start", result.restartNeeded());
        }
        return result;
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

    // ---- registered nodes ----------------------------------------------------------------------------

    @Override
    public synchronized RegistrationReply register(String cluster, NodeRegistration registration) {
        ClusterConfig configured = configured(cluster);
        NodeRegistry.Outcome outcome;
        synchronized (registry) {
            outcome = registry.register(configured, registration);
        }
        if (outcome != NodeRegistry.Outcome.RENEWED) {
            rebuildForRegistrations();
            log.info("cluster {}: node {} at {} {} with contexts {}", cluster, registration.name(),
                    registration.address(), outcome == NodeRegistry.Outcome.ADDED ? "registered" : "re-registered",
                    registration.contexts());
        }
        startSweeper();
        return new RegistrationReply(cluster, registration.name(), outcome == NodeRegistry.Outcome.ADDED,
                configured.registration().ttlMsOrDefault());
    }

    @Override
    public synchronized void deregister(String cluster, String node) {
        configured(cluster);
        boolean known;
        synchronized (registry) {
            known = registry.leave(cluster, node);
        }
        if (!known) {
            throw new RegistrationRefusedException(404, "cluster '" + cluster + "' has no registered node named '"
                    + node + "'");
        }
        drainLeaving();
        log.info("cluster {}: node {} deregistered; draining, removed once its requests have ended", cluster, node);
    }

    private ClusterConfig configured(String cluster) {
        for (ClusterConfig c : config.clustersOrEmpty()) {
            if (c.name().equals(cluster)) {
                return c;
            }
        }
        throw new RegistrationRefusedException(404, "cluster '" + cluster + "': no such cluster");
    }

    /** Deregistered nodes drain through the same path as {@code PUT .../nodes/{node} {"drain": true}}. */
    private void drainLeaving() {
        for (RunningCluster rc : running.values()) {
            VirtualCluster vc = rc.cluster();
            Set<String> leaving;
            synchronized (registry) {
                leaving = registry.leaving(vc.name());
            }
            for (String name : leaving) {
                NodeState node = vc.node(name);
                if (node != null && !node.draining()) {
                    vc.setDraining(node, true);
                }
            }
        }
    }

    private void rebuildForRegistrations() {
        try {
            applyChecked(config);
        } catch (ConfigValidationException e) {
            throw new RegistrationRefusedException(503, "the dispatcher cannot apply registrations now: "
                    + String.join("; ", e.errors()));
        }
    }

    private void startSweeper() {
        if (registrationSweeper != null || closed) {
            return;
        }
        registrationSweeper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "loadwise-registrations");
            t.setDaemon(true);
            return t;
        });
        registrationSweeper.scheduleWithFixedDelay(this::sweepRegistrations, 200, 200, TimeUnit.MILLISECONDS);
    }

    /** Off the event loops: drops lapsed registrations and drained leavers, then rebuilds what changed. */
    private synchronized void sweepRegistrations() {
        if (closed) {
            return;
        }
        boolean removed;
        synchronized (registry) {
            removed = registry.removeLeft(config, this::idle);
        }
        if (removed) {
            try {
                applyChecked(config);
            } catch (ConfigValidationException | RuntimeException e) {
                log.warn("registrations: could not remove lapsed nodes: {}", e.getMessage());
            }
        }
    }

    private boolean idle(String cluster, String node) {
        RunningCluster rc = running.get(cluster);
        NodeState state = rc == null ? null : rc.cluster().node(node);
        return state == null || (state.activeConnections() == 0 && state.inFlightRequests() == 0);
    }

    /** Keeps {@link #clusters()} in configuration order; only clusters of {@code order} are kept. */
    private void rebuildOrder(LoadwiseConfig order) {
        Map<String, RunningCluster> copy = new LinkedHashMap<>(running);
        running.clear();
        for (ClusterConfig c : order.clustersOrEmpty()) {
            RunningCluster rc = copy.remove(c.name());
            if (rc != null) {
                running.put(c.name(), rc);
            }
        }
        for (RunningCluster stray : copy.values()) {
            stray.drain(monitor, resilience);
        }
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

    /**
     * The first step of a graceful shutdown: every listener stops accepting and closes its listening
     * socket; connections already open carry on (see {@link #inFlight()}) until {@link #close()}. This is
     * the drain a reload retires a listener with
     * ({@link io.loadwise.dispatcher.net.ClusterListener#drain()}), so an HTTP connection
     * also answers its last request with {@code Connection: close} and closes after it, instead of idling
     * until the process exits.
     */
    public synchronized void stopAccepting() {
        for (RunningCluster rc : running.values()) {
            rc.listener().drain();
        }
        log.info("stopped accepting connections on {} listeners", running.size());
    }

    /**
     * Work a graceful shutdown waits for: HTTP requests in progress, and open TCP tunnels (a TCP cluster
     * cannot tell a request from an idle connection). Idle HTTP keep-alive connections do not count.
     */
    public int inFlight() {
        int total = 0;
        for (VirtualCluster cluster : clusterList) {
            total += cluster.config().mode() == io.loadwise.dispatcher.config.Mode.TCP
                    ? cluster.counters().activeConnections() : cluster.counters().activeRequests();
        }
        return total;
    }

    @Override
    public List<io.loadwise.dispatcher.control.ReplicaInfo> replicas() {
        return replicaLister.get();
    }

    @Override
    public String replicaId() {
        return replicaId;
    }

    /**
     * Makes this dispatcher one replica of a shared store: its id, and where {@link #replicas()} comes from
     * (the etcd replica registry).
     */
    public void setReplica(String id, java.util.function.Supplier<List<io.loadwise.dispatcher.control.ReplicaInfo>> lister) {
        this.replicaId = id;
        this.replicaLister = lister;
    }

    /** Stops the control plane, the history and every listener. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (registrationSweeper != null) {
            registrationSweeper.shutdownNow();
        }
        if (controlPlane != null) {
            try {
                controlPlane.close();
            } catch (RuntimeException e) {
                log.warn("closing the admin console failed", e);
            }
        }
        history.close();
        for (RunningCluster rc : running.values()) {
            rc.close(monitor, resilience);
        }
        monitor.close();
        running.clear();
        publish();
    }
}
