package io.loadwise.dispatcher.runtime;

import io.loadwise.dispatcher.cluster.NodeHandover;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.DrainMode;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.control.ClusterStatus;
import io.loadwise.dispatcher.control.ReloadResult;
import io.loadwise.dispatcher.http.HttpProxyServer;
import io.loadwise.dispatcher.monitor.NodeMonitor;
import io.loadwise.dispatcher.net.ConnectionLimit;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.registration.NodeRegistry;
import io.loadwise.policy.PolicyOptions;
import io.loadwise.policy.PolicyRegistry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clusters a {@link Dispatcher} runs, and how a configuration becomes them: {@link #applyChecked} turns
 * the configuration in force into the next one (start, hand over, drain, change in place) without dropping a
 * connection. It holds the configuration in force, the registered nodes overlaid on it, the node monitor and
 * the resilience timers every cluster shares.
 *
 * <p>Changes are serialised on this object (the control side synchronises on it for compound edits); readers
 * ({@link #clusters()}, {@link #published()}) see the last {@link #publish()} without the lock.
 */
final class LiveClusters {

    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class); // its log lines, as before the split

    private final PolicyRegistry policies;
    private final Transport transport;
    private final ListenerFactory listeners;
    /** {@code maxClientConnections}: shared by every listener, kept across listener restarts. */
    private final ConnectionLimit clientConnections;
    private final NodeMonitor monitor = new NodeMonitor();
    private final Resilience resilience = new Resilience(System::nanoTime, System::currentTimeMillis);
    private final Map<String, RunningCluster> running = new LinkedHashMap<>();
    /** The ports of {@code listeners[]}, routing to {@link #running}'s HTTP clusters. */
    private final RoutedListeners routed;
    /** Nodes that registered themselves; {@link #running} runs {@link #config} with them ({@link #effective}). */
    private final NodeRegistry registry = new NodeRegistry(System::nanoTime);

    private volatile LoadwiseConfig config;
    /** What the clusters run: {@link #config} with the registered nodes added; never written anywhere. */
    private LoadwiseConfig effective;
    /** What {@link #running} held at the last {@link #publish()}: read without the lock. */
    private volatile List<RunningCluster> published = List.of();
    private volatile List<VirtualCluster> clusterList = List.of();
    private boolean closed;

    LiveClusters(LoadwiseConfig config, PolicyRegistry policies, Transport transport, ListenerFactory listeners,
            ConnectionLimit clientConnections) {
        this.config = config;
        this.effective = config;
        this.policies = policies;
        this.transport = transport;
        this.listeners = listeners;
        this.clientConnections = clientConnections;
        this.routed = new RoutedListeners(transport, clientConnections);
    }

    /** Starts a listener for every cluster of the configuration in force. */
    synchronized void startAll() throws IOException {
        for (ClusterConfig cluster : config.clustersOrEmpty()) {
            running.put(cluster.name(), launch(cluster, null));
        }
        List<String> failed = routed.apply(config, httpServers());
        if (!failed.isEmpty()) {
            throw new IOException(String.join("; ", failed));
        }
        publish();
    }

    /** The running HTTP clusters by name: what routes lead to. */
    private Map<String, HttpProxyServer> httpServers() {
        Map<String, HttpProxyServer> servers = new LinkedHashMap<>();
        for (RunningCluster rc : running.values()) {
            if (rc.listener() instanceof HttpProxyServer http) {
                servers.put(rc.cluster().name(), http);
            }
        }
        return servers;
    }

    /** The ports of {@code listeners[]}. */
    RoutedListeners routed() {
        return routed;
    }

    /** The configuration in force (without the registered nodes). */
    LoadwiseConfig config() {
        return config;
    }

    NodeMonitor monitor() {
        return monitor;
    }

    /** The registered nodes; lock it for every use (readers do not take this object's lock). */
    NodeRegistry registry() {
        return registry;
    }

    synchronized boolean closed() {
        return closed;
    }

    /** The live clusters, in configuration order, as last published. */
    List<VirtualCluster> clusters() {
        return clusterList;
    }

    /** The running clusters, in configuration order, as last published. */
    List<RunningCluster> published() {
        return published;
    }

    /** The published running cluster with this name, or {@code null}. */
    RunningCluster published(String name) {
        for (RunningCluster rc : published) {
            if (rc.cluster().name().equals(name)) {
                return rc;
            }
        }
        return null;
    }

    /** The running cluster with this name under the lock (an edit in progress), or {@code null}. */
    synchronized VirtualCluster live(String name) {
        RunningCluster rc = running.get(name);
        return rc == null ? null : rc.cluster();
    }

    /** The status of a running cluster: its configuration in force, the monitor's view, registered nodes. */
    ClusterStatus status(RunningCluster rc) {
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

    /**
     * Starts a cluster on a new socket, or on {@code previous}'s when not {@code null}. A cluster that replaces
     * a running one of its name keeps the state of the nodes it keeps ({@link NodeHandover}: same name and
     * address), whoever's socket it takes.
     */
    private RunningCluster launch(ClusterConfig cluster, RunningCluster previous) throws IOException {
        VirtualCluster vc = new VirtualCluster(cluster, policies, System::nanoTime);
        RunningCluster replaced = running.get(cluster.name());
        NodeHandover handover = NodeHandover.between(replaced == null ? null : replaced.cluster(), vc);
        return RunningCluster.start(vc, previous, handover, listeners, transport, clientConnections, monitor,
                resilience);
    }

    private void publish() {
        List<VirtualCluster> list = new ArrayList<>();
        for (RunningCluster rc : running.values()) {
            list.add(rc.cluster());
        }
        published = List.copyOf(running.values());
        clusterList = List.copyOf(list);
    }

    /**
     * A reload also re-reads the certificate files of every TLS listener it kept, at once rather than at its
     * watcher's next check: a certificate replaced on disk is served from the next new connection, and open
     * connections keep their session. (The validator has just loaded the same files, so a pair that does not
     * match refused the reload before this point.)
     */
    synchronized void recheckCertificates() {
        for (RunningCluster rc : running.values()) {
            if (rc.listener() instanceof HttpProxyServer http && http.tls() != null) {
                http.tls().checkFiles();
            }
        }
        routed.checkCertificates();
    }

    /**
     * Makes {@code next} (validated) the configuration in force: new clusters start; removed ones drain;
     * policy, option, weight and enabled-flag changes are applied in place; any other change rebuilds the
     * cluster, and the rebuilt one takes over the listening socket when the address and mode stay, or binds
     * its new address before the old listener drains. See {@link Dispatcher#apply}.
     *
     * @throws ConfigValidationException when a new address cannot be bound; then nothing changed
     */
    synchronized ReloadResult applyChecked(LoadwiseConfig next) throws ConfigValidationException {
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
        failed.addAll(routed.apply(nextEffective, httpServers()));
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
            DrainMode drain = node.drainOrDefault();
            if (drain != old.nodesOrEmpty().get(i).drainOrDefault()) {
                vc.setDrain(state, drain, 0, NodeConfig.DEFAULT_SESSION_IDLE_MS); // only a change in the file
            }
        }
        vc.updateConfig(changed);
    }

    /** Deregistered nodes drain through the same path as {@code PUT .../nodes/{node} {"drain": true}}. */
    synchronized void drainLeaving() {
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

    /** Whether a node has neither connections nor requests (or is gone): a leaver that may be removed. */
    synchronized boolean idle(String cluster, String node) {
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

    /** Every listener stops accepting; returns how many there were. See {@link Dispatcher#stopAccepting()}. */
    synchronized int stopAccepting() {
        for (RunningCluster rc : running.values()) {
            rc.listener().drain();
        }
        routed.drainAll();
        return running.size() + routed.published().size();
    }

    /** Closes every listener and the node monitor; later changes are refused. Idempotent. */
    synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (RunningCluster rc : running.values()) {
            rc.close(monitor, resilience);
        }
        routed.closeAll();
        monitor.close();
        running.clear();
        publish();
    }
}
