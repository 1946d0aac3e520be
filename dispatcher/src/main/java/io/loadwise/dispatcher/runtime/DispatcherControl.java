package io.loadwise.dispatcher.runtime;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.ConfigValidator;
import io.loadwise.dispatcher.config.ListenerConfig;
import io.loadwise.dispatcher.config.DrainMode;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.RateLimitConfig;
import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.ClusterStatus;
import io.loadwise.dispatcher.control.ConfigConflictException;
import io.loadwise.dispatcher.control.NodeRegistration;
import io.loadwise.dispatcher.control.RegistrationRefusedException;
import io.loadwise.dispatcher.control.RegistrationReply;
import io.loadwise.dispatcher.control.ReloadResult;
import io.loadwise.dispatcher.control.ReplicaInfo;
import io.loadwise.dispatcher.metrics.MetricsSnapshot;
import io.loadwise.dispatcher.registration.NodeRegistry;
import io.loadwise.dispatcher.store.ConfigSource;
import io.loadwise.policy.PolicyRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control-plane side of a {@link Dispatcher}: views, edits, reloads and node registrations.
 *
 * <p>Every change goes the same way: build the whole new configuration, validate it exactly like the file,
 * write it atomically to the source, then apply it ({@link LiveClusters#applyChecked}). Validation failures
 * change nothing; a listener that cannot bind rolls the source and the runtime back to the previous
 * configuration. Changes are serialised on the {@link LiveClusters}; the event loops never wait for it.
 */
final class DispatcherControl implements ClusterControl {

    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class); // its log lines, as before the split

    private final LiveClusters clusters;
    private final PolicyRegistry policies;
    private final ConfigValidator validator;
    /** Where changes are written and reloads read from; {@code null}: in memory only. */
    private final ConfigSource source;
    private final MetricsHistory history;
    /** Removes lapsed and drained registrations; started with the first registration. */
    private ScheduledExecutorService registrationSweeper;
    /** Refreshes the rate limits' share of a replica of a shared store; null with the file. */
    private RateLimitShares replicaShare;
    private volatile String replicaId;
    /** The live replicas of a shared store; none with the file. */
    private volatile Supplier<List<ReplicaInfo>> replicaLister = List::of;

    DispatcherControl(LiveClusters clusters, PolicyRegistry policies, ConfigSource source, MetricsHistory history) {
        this.clusters = clusters;
        this.policies = policies;
        this.validator = new ConfigValidator(policies);
        this.source = source;
        this.history = history;
    }

    @Override
    public LoadwiseConfig config() {
        return clusters.config();
    }

    @Override
    public PolicyRegistry policies() {
        return policies;
    }

    @Override
    public List<ClusterStatus> clusterStatuses() {
        List<ClusterStatus> statuses = new ArrayList<>();
        for (RunningCluster rc : clusters.published()) {
            statuses.add(clusters.status(rc));
        }
        return statuses;
    }

    @Override
    public ClusterStatus clusterStatus(String name) {
        RunningCluster rc = clusters.published(name);
        return rc == null ? null : clusters.status(rc);
    }

    @Override
    public List<MetricsSnapshot> history(String cluster) {
        return history.history(cluster);
    }

    @Override
    public List<MetricsSnapshot> nodeHistory(String cluster, String node) {
        return history.nodeHistory(cluster, node);
    }

    @Override
    public void switchPolicy(String cluster, String policyId, Map<String, Double> options)
            throws ConfigValidationException {
        synchronized (clusters) {
            LoadwiseConfig config = clusters.config();
            int index = indexOf(cluster);
            ClusterConfig changed = ClusterEdits.withPolicy(config.clustersOrEmpty().get(index), policyId, options);
            change(ClusterEdits.replace(config, index, changed));
        }
    }

    @Override
    public void updateNode(String cluster, String node, Boolean enabled, Integer weight, Boolean drain)
            throws ConfigValidationException {
        synchronized (clusters) {
            int index = indexOf(cluster);
            if (clusters.live(cluster).node(node) == null) {
                throw new ConfigValidationException("cluster '" + cluster + "': no node named '" + node + "'");
            }
            if (enabled != null || weight != null) {
                LoadwiseConfig config = clusters.config();
                ClusterConfig old = config.clustersOrEmpty().get(index);
                change(ClusterEdits.replace(config, index, ClusterEdits.withNode(old, node, enabled, weight)));
            }
            if (drain != null) {
                VirtualCluster vc = clusters.live(cluster);
                vc.setDraining(vc.node(node), drain);
            }
        }
    }

    @Override
    public DrainMode drainNode(String cluster, String node, DrainMode mode, long deadlineMs, long sessionIdleMs)
            throws ConfigValidationException {
        DrainMode.checkTimes(deadlineMs, sessionIdleMs);
        synchronized (clusters) {
            indexOf(cluster);
            VirtualCluster vc = clusters.live(cluster);
            NodeState state = vc.node(node);
            if (state == null) {
                throw new ConfigValidationException("cluster '" + cluster + "': no node named '" + node + "'");
            }
            return vc.setDrain(state, mode, deadlineMs, sessionIdleMs);
        }
    }

    @Override
    public void updateNodeGroup(String cluster, String node, Integer priority, Boolean backup)
            throws ConfigValidationException {
        synchronized (clusters) {
            LoadwiseConfig config = clusters.config();
            int index = indexOf(cluster);
            ClusterConfig old = config.clustersOrEmpty().get(index);
            change(ClusterEdits.replace(config, index, ClusterEdits.withNodeGroup(old, node, priority, backup)));
        }
    }

    @Override
    public void createCluster(ClusterConfig cluster) throws ConfigValidationException {
        synchronized (clusters) {
            List<ClusterConfig> list = new ArrayList<>(clusters.config().clustersOrEmpty());
            list.add(cluster);
            change(clusters.config().withClusters(list));
        }
    }

    @Override
    public void updateCluster(String name, ClusterConfig cluster) throws ConfigValidationException {
        synchronized (clusters) {
            int index = indexOf(name);
            ClusterConfig changed = cluster.name() == null ? ClusterEdits.withName(cluster, name) : cluster;
            change(ClusterEdits.replace(clusters.config(), index, changed));
        }
    }

    @Override
    public void deleteCluster(String name) throws ConfigValidationException {
        synchronized (clusters) {
            int index = indexOf(name);
            List<ClusterConfig> list = new ArrayList<>(clusters.config().clustersOrEmpty());
            list.remove(index);
            change(clusters.config().withClusters(list));
        }
    }

    @Override
    public void replaceListeners(LoadwiseConfig base, List<ListenerConfig> listeners,
            Map<String, RateLimitConfig> rateLimits) throws ConfigValidationException {
        synchronized (clusters) {
            if (!clusters.config().equals(base)) {
                throw new ConfigConflictException("the configuration changed meanwhile; nothing was changed. Read"
                        + " it again and repeat the change.");
            }
            change(base.withListeners(listeners, rateLimits));
        }
    }

    /**
     * Re-reads the configuration source (the file, or the file and etcd), validates it and applies the
     * difference ({@link #apply}). An invalid configuration changes nothing.
     */
    @Override
    public ReloadResult reload() throws ConfigValidationException {
        if (source == null) {
            throw new ConfigValidationException("no configuration file to reload from (the dispatcher was started"
                    + " without one)");
        }
        synchronized (clusters) {
            LoadwiseConfig next;
            try {
                next = source.read();
                validator.check(next);
            } catch (ConfigValidationException e) {
                log.error("reload of {} refused, the configuration in force is kept: {}", source.describe(),
                        String.join("; ", e.errors()));
                throw e;
            }
            ReloadResult result = clusters.applyChecked(next);
            clusters.recheckCertificates();
            log.info("reloaded {}: {}", source.describe(), result.summary());
            return result;
        }
    }

    /** Validates {@code next} and applies it without writing it anywhere; see {@link Dispatcher#apply}. */
    ReloadResult apply(LoadwiseConfig next) throws ConfigValidationException {
        synchronized (clusters) {
            validator.check(next);
            return clusters.applyChecked(next);
        }
    }

    /** Validates, persists and applies {@code next}; a failed apply restores what was persisted. */
    private void change(LoadwiseConfig next) throws ConfigValidationException {
        validator.check(next);
        LoadwiseConfig previous = clusters.config();
        if (source != null) {
            source.write(previous, next);
        }
        ReloadResult result;
        try {
            result = clusters.applyChecked(next);
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

    private int indexOf(String name) throws ConfigValidationException {
        List<ClusterConfig> list = clusters.config().clustersOrEmpty();
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new ConfigValidationException("cluster '" + name + "': no such cluster");
    }

    // ---- registered nodes ----------------------------------------------------------------------------

    @Override
    public RegistrationReply register(String cluster, NodeRegistration registration) {
        synchronized (clusters) {
            ClusterConfig configured = configured(cluster);
            NodeRegistry registry = clusters.registry();
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
    }

    @Override
    public void deregister(String cluster, String node) {
        synchronized (clusters) {
            configured(cluster);
            NodeRegistry registry = clusters.registry();
            boolean known;
            synchronized (registry) {
                known = registry.leave(cluster, node);
            }
            if (!known) {
                throw new RegistrationRefusedException(404, "cluster '" + cluster
                        + "' has no registered node named '" + node + "'");
            }
            clusters.drainLeaving();
            log.info("cluster {}: node {} deregistered; draining, removed once its requests have ended", cluster,
                    node);
        }
    }

    private ClusterConfig configured(String cluster) {
        for (ClusterConfig c : clusters.config().clustersOrEmpty()) {
            if (c.name().equals(cluster)) {
                return c;
            }
        }
        throw new RegistrationRefusedException(404, "cluster '" + cluster + "': no such cluster");
    }

    private void rebuildForRegistrations() {
        try {
            clusters.applyChecked(clusters.config());
        } catch (ConfigValidationException e) {
            throw new RegistrationRefusedException(503, "the dispatcher cannot apply registrations now: "
                    + String.join("; ", e.errors()));
        }
    }

    private void startSweeper() {
        if (registrationSweeper != null || clusters.closed()) {
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
    private void sweepRegistrations() {
        synchronized (clusters) {
            if (clusters.closed()) {
                return;
            }
            NodeRegistry registry = clusters.registry();
            boolean removed;
            synchronized (registry) {
                removed = registry.removeLeft(clusters.config(), clusters::idle);
            }
            if (removed) {
                try {
                    clusters.applyChecked(clusters.config());
                } catch (ConfigValidationException | RuntimeException e) {
                    log.warn("registrations: could not remove lapsed nodes: {}", e.getMessage());
                }
            }
        }
    }

    // ---- replicas ------------------------------------------------------------------------------------

    @Override
    public List<ReplicaInfo> replicas() {
        return replicaLister.get();
    }

    @Override
    public String replicaId() {
        return replicaId;
    }

    void setReplica(String id, Supplier<List<ReplicaInfo>> lister) {
        this.replicaId = id;
        this.replicaLister = lister;
        if (replicaShare == null) {
            replicaShare = new RateLimitShares(clusters.routed(), lister);
        }
    }

    /** Stops the registration sweeper; call with the {@link LiveClusters} lock held, before closing them. */
    void close() {
        if (registrationSweeper != null) {
            registrationSweeper.shutdownNow();
        }
        if (replicaShare != null) {
            replicaShare.close();
        }
    }
}
