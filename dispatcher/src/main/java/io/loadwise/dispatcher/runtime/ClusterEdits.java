package io.loadwise.dispatcher.runtime;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.NodeConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Pure functions building a changed configuration from the current one. */
final class ClusterEdits {

    private ClusterEdits() {
    }

    static LoadwiseConfig replace(LoadwiseConfig config, int index, ClusterConfig cluster) {
        List<ClusterConfig> list = new ArrayList<>(config.clustersOrEmpty());
        list.set(index, cluster);
        return config.withClusters(list);
    }

    static ClusterConfig withPolicy(ClusterConfig c, String policy, Map<String, Double> options) {
        return c.toBuilder().policy(policy)
                .policyOptions(options == null || options.isEmpty() ? null : copyKeepingNulls(options)).build();
    }

    /** Map.copyOf refuses null values; the validator reports them with their path instead. */
    private static Map<String, Double> copyKeepingNulls(Map<String, Double> options) {
        return java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(options));
    }

    static ClusterConfig withName(ClusterConfig c, String name) {
        return c.toBuilder().name(name).build();
    }

    static ClusterConfig withNodes(ClusterConfig c, List<NodeConfig> nodes) {
        return c.toBuilder().nodes(nodes).build();
    }

    static ClusterConfig withNode(ClusterConfig c, String node, Boolean enabled, Integer weight)
            throws ConfigValidationException {
        return withNodeChanged(c, node, n -> {
            NodeConfig changed = enabled == null ? n : n.withEnabled(enabled);
            return weight == null ? changed : changed.withWeight(weight);
        });
    }

    /** The node in another priority group; {@code backup} true drops its priority (a backup node has none). */
    static ClusterConfig withNodeGroup(ClusterConfig c, String node, Integer priority, Boolean backup)
            throws ConfigValidationException {
        return withNodeChanged(c, node, n -> {
            boolean toBackup = backup != null ? backup : n.backupOrDefault();
            Integer newPriority = Boolean.TRUE.equals(backup) && priority == null ? null
                    : priority != null ? priority : n.priority();
            return n.withGroup(newPriority, toBackup ? Boolean.TRUE : null);
        });
    }

    private static ClusterConfig withNodeChanged(ClusterConfig c, String node,
            java.util.function.UnaryOperator<NodeConfig> change) throws ConfigValidationException {
        List<NodeConfig> nodes = new ArrayList<>(c.nodesOrEmpty());
        for (int i = 0; i < nodes.size(); i++) {
            if (nodes.get(i).name().equals(node)) {
                nodes.set(i, change.apply(nodes.get(i)));
                return withNodes(c, nodes);
            }
        }
        throw new ConfigValidationException("cluster '" + c.name() + "': no node named '" + node + "'");
    }

    /**
     * Whether {@code changed} differs from {@code old} only in what a running cluster can change in
     * place: the policy, its options, node weights and enabled flags, node priorities and backup flags,
     * {@code minActive} and {@code panicThresholdPercent} (the next picker rebuild judges the groups again).
     */
    static boolean liveApplicable(ClusterConfig old, ClusterConfig changed) {
        return stripLive(old).equals(stripLive(changed));
    }

    private static ClusterConfig stripLive(ClusterConfig c) {
        List<NodeConfig> nodes = new ArrayList<>();
        for (NodeConfig n : c.nodesOrEmpty()) {
            nodes.add(new NodeConfig(n.name(), n.address(), null, null, n.route(), n.agentPath(), n.healthCheck(),
                    n.maxConnections(), n.contexts()));
        }
        return withNodes(withPolicy(c, null, null), nodes).toBuilder().minActive(null).panicThresholdPercent(null)
                .build();
    }
}
