package io.loadwise.console.testing;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.ConfigValidator;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.metrics.CounterReading;
import io.loadwise.dispatcher.metrics.MetricsHistory;
import io.loadwise.dispatcher.metrics.MetricsSnapshot;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.tcp.TcpProxyServer;
import io.loadwise.policy.PolicyOptions;
import io.loadwise.policy.PolicyRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small real {@link ClusterControl} for the API tests, standing in until the dispatcher's own lands:
 * the dispatcher's real parts (config file store and validator, {@link VirtualCluster}, TCP listeners on
 * loopback, metrics history) wired the simplest way. Every change is validated, written to the config
 * file, then applied. TCP clusters only; metrics are sampled when a test calls {@link #sampleMetrics()}.
 */
public final class TestClusterControl implements ClusterControl, AutoCloseable {

    private final ConfigStore store;
    private final PolicyRegistry policies = PolicyRegistry.load();
    private final ConfigValidator validator = new ConfigValidator(policies);
    private final Transport transport = new Transport(1);
    private final Map<String, VirtualCluster> clusters = new LinkedHashMap<>();
    private final Map<String, TcpProxyServer> listeners = new LinkedHashMap<>();
    private final MetricsHistory history = new MetricsHistory(this::clusters);
    private volatile LoadwiseConfig config;

    public TestClusterControl(Path configFile) throws ConfigValidationException, IOException {
        this.store = new ConfigStore(configFile);
        this.config = store.load();
        validator.check(config);
        for (ClusterConfig c : config.clustersOrEmpty()) {
            startCluster(c);
        }
    }

    public void sampleMetrics() {
        history.sample();
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
    public synchronized List<VirtualCluster> clusters() {
        return List.copyOf(clusters.values());
    }

    @Override
    public synchronized VirtualCluster cluster(String name) {
        return clusters.get(name);
    }

    @Override
    public synchronized InetSocketAddress boundAddress(String cluster) {
        TcpProxyServer listener = listeners.get(cluster);
        return listener == null ? null : listener.boundAddress();
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
    public CounterReading totals(String cluster) {
        VirtualCluster c = cluster(cluster);
        return c == null ? CounterReading.ZERO : c.counters().read();
    }

    @Override
    public synchronized void switchPolicy(String cluster, String policyId, Map<String, Double> options)
            throws ConfigValidationException {
        ClusterConfig c = clusterConfig(cluster);
        commit(replace(cluster, withPolicy(c, policyId, options)));
        clusters.get(cluster).switchPolicy(policies.get(policyId), PolicyOptions.of(options));
    }

    @Override
    public synchronized void updateNode(String cluster, String node, Boolean enabled, Integer weight, Boolean drain)
            throws ConfigValidationException {
        ClusterConfig c = clusterConfig(cluster);
        List<NodeConfig> nodes = new ArrayList<>();
        for (NodeConfig n : c.nodesOrEmpty()) {
            NodeConfig changed = n;
            if (n.name().equals(node)) {
                changed = enabled == null ? changed : changed.withEnabled(enabled);
                changed = weight == null ? changed : changed.withWeight(weight);
            }
            nodes.add(changed);
        }
        commit(replace(cluster, withNodes(c, nodes)));
        VirtualCluster running = clusters.get(cluster);
        NodeState state = running.node(node);
        if (enabled != null) {
            running.setEnabled(state, enabled);
        }
        if (weight != null) {
            running.setWeight(state, weight);
        }
        if (drain != null) {
            running.setDraining(state, drain);
        }
    }

    @Override
    public synchronized void createCluster(ClusterConfig cluster) throws ConfigValidationException {
        List<ClusterConfig> all = new ArrayList<>(config.clustersOrEmpty());
        all.add(cluster);
        commit(all);
        startCluster(cluster);
    }

    @Override
    public synchronized void updateCluster(String name, ClusterConfig cluster) throws ConfigValidationException {
        clusterConfig(name);
        commit(replace(name, cluster));
        stopCluster(name);
        startCluster(cluster);
    }

    @Override
    public synchronized void deleteCluster(String name) throws ConfigValidationException {
        clusterConfig(name);
        List<ClusterConfig> all = new ArrayList<>(config.clustersOrEmpty());
        all.removeIf(c -> c.name().equals(name));
        commit(all);
        stopCluster(name);
    }

    @Override
    public synchronized void close() {
        for (String name : List.copyOf(listeners.keySet())) {
            stopCluster(name);
        }
        history.close();
        transport.close();
    }

    private ClusterConfig clusterConfig(String name) throws ConfigValidationException {
        for (ClusterConfig c : config.clustersOrEmpty()) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        throw new ConfigValidationException("no cluster named '" + name + "'");
    }

    private List<ClusterConfig> replace(String name, ClusterConfig replacement) {
        List<ClusterConfig> all = new ArrayList<>();
        for (ClusterConfig c : config.clustersOrEmpty()) {
            all.add(c.name().equals(name) ? replacement : c);
        }
        return all;
    }

    private void commit(List<ClusterConfig> clusterConfigs) throws ConfigValidationException {
        LoadwiseConfig next = new LoadwiseConfig(config.admin(), config.logging(), clusterConfigs);
        validator.check(next);
        try {
            store.write(next);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        config = next;
    }

    private void startCluster(ClusterConfig c) {
        VirtualCluster cluster = new VirtualCluster(c, policies, System::nanoTime);
        TcpProxyServer listener = new TcpProxyServer(cluster, transport);
        try {
            listener.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        clusters.put(c.name(), cluster);
        listeners.put(c.name(), listener);
    }

    private void stopCluster(String name) {
        TcpProxyServer listener = listeners.remove(name);
        if (listener != null) {
            listener.close();
        }
        clusters.remove(name);
    }

    private static ClusterConfig withPolicy(ClusterConfig c, String policy, Map<String, Double> options) {
        return new ClusterConfig(c.name(), c.mode(), c.listen(), policy, options.isEmpty() ? null : options,
                c.balance(), c.affinity(), c.affinityCookie(), c.connectTimeoutMs(), c.responseTimeoutMs(),
                c.idleTimeoutMs(), c.maxHeaderBytes(), c.maxConnectionsPerNode(), c.connectAttempts(),
                c.unhealthyRetryMs(), c.agentPath(), c.agentPollIntervalMs(), c.agentExpiryMs(), c.agentReprobeMs(),
                c.nodes());
    }

    private static ClusterConfig withNodes(ClusterConfig c, List<NodeConfig> nodes) {
        return new ClusterConfig(c.name(), c.mode(), c.listen(), c.policy(), c.policyOptions(), c.balance(),
                c.affinity(), c.affinityCookie(), c.connectTimeoutMs(), c.responseTimeoutMs(), c.idleTimeoutMs(),
                c.maxHeaderBytes(), c.maxConnectionsPerNode(), c.connectAttempts(), c.unhealthyRetryMs(),
                c.agentPath(), c.agentPollIntervalMs(), c.agentExpiryMs(), c.agentReprobeMs(), nodes);
    }
}
