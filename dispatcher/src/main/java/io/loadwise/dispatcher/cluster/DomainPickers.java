package io.loadwise.dispatcher.cluster;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.PolicyEnvironment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Replication domains of a cluster (issue 32, mod_cluster's {@code domain}): one picker of the cluster's policy
 * per domain, over the nodes that name it. A request pinned to a node that is gone or drained goes to a usable
 * node of that node's domain before any other ({@link VirtualCluster#pickInDomain}), since those nodes hold
 * copies of its sessions. Immutable and rebuilt with the cluster's pickers, handing each domain's picker state on
 * when the domain keeps its nodes; a pick is an array lookup and the policy's own pick, and allocates nothing.
 */
final class DomainPickers {

    /** A cluster whose nodes name no domain. */
    static final DomainPickers NONE = new DomainPickers(Map.of(), new SubsetPicker[0]);

    /** Per domain name, its picker (kept for the next rebuild). */
    private final Map<String, SubsetPicker> byDomain;
    /** Cluster node index to its domain's picker, {@code null} for a node in no domain. */
    private final SubsetPicker[] byNode;

    private DomainPickers(Map<String, SubsetPicker> byDomain, SubsetPicker[] byNode) {
        this.byDomain = byDomain;
        this.byNode = byNode;
    }

    /** @param previous the domains this replaces, whose pickers hand their state on; may be {@code null} */
    static DomainPickers of(ClusterConfig config, List<NodeState> nodes, LoadBalancingPolicy policy,
            PolicyEnvironment environment, DomainPickers previous) {
        List<NodeConfig> configs = config.nodesOrEmpty();
        Map<String, List<NodeState>> members = new LinkedHashMap<>();
        for (int i = 0; i < nodes.size() && i < configs.size(); i++) {
            String domain = configs.get(i).domain();
            if (domain != null) {
                members.computeIfAbsent(domain, d -> new ArrayList<>()).add(nodes.get(i));
            }
        }
        if (members.isEmpty()) {
            return NONE;
        }
        Map<String, SubsetPicker> byDomain = new LinkedHashMap<>();
        SubsetPicker[] byNode = new SubsetPicker[nodes.size()];
        for (Map.Entry<String, List<NodeState>> domain : members.entrySet()) {
            SubsetPicker carried = previous == null ? null : previous.byDomain.get(domain.getKey());
            SubsetPicker picker = SubsetPicker.build(config.name() + "#" + domain.getKey(), nodes.size(),
                    domain.getValue(), policy, environment, carried);
            byDomain.put(domain.getKey(), picker);
            for (NodeState node : domain.getValue()) {
                byNode[node.index()] = picker;
            }
        }
        return new DomainPickers(Map.copyOf(byDomain), byNode);
    }

    /**
     * A usable node of {@code node}'s domain other than {@code node}, chosen by the cluster's policy; {@code null}
     * when {@code node} is in no domain or no other node of its domain is usable.
     */
    NodeState partner(NodeState node) {
        SubsetPicker picker = node.index() < byNode.length ? byNode[node.index()] : null;
        if (picker == null) {
            return null;
        }
        NodeState chosen = picker.pick(node);
        return chosen == node || chosen == null || !chosen.usable() ? null : chosen;
    }

    /** Whether a change from {@code old} to {@code changed} moves some node to another domain (a rebuild). */
    static boolean changed(ClusterConfig old, ClusterConfig changed) {
        List<NodeConfig> before = old.nodesOrEmpty();
        List<NodeConfig> after = changed.nodesOrEmpty();
        for (int i = 0; i < before.size() && i < after.size(); i++) {
            if (!Objects.equals(before.get(i).domain(), after.get(i).domain())) {
                return true;
            }
        }
        return false;
    }
}
