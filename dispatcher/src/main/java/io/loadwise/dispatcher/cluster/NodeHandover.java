package io.loadwise.dispatcher.cluster;

import io.loadwise.dispatcher.config.NodeConfig;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a rebuilt cluster keeps of the one it replaces (a reload, an API edit or a registration that changed
 * the node list, or anything else that is not applied in place). As HAProxy's {@code server-state-file} and
 * Envoy's CDS/EDS updates do, a node whose identity is unchanged keeps what was learnt of it; a node is the
 * same when its {@code name} and its {@code address} (host as written, case aside, and port) are both
 * unchanged. Its position in the list, weight, priority or any other setting may change. A new name or a new
 * address is a new node, unknown as at start.
 *
 * <p>A kept node keeps its agent's latest sample and state, and its runtime drain (REST API, console,
 * {@code loadwise drain}) unless the file's {@code drain} of the node changed, which then wins as when the
 * change is applied in place. The components that own the rest take it over with this pairing: the health
 * check (state and rise/fall counters, when the node's check is the same), outlier detection (run lengths and
 * an ejection under way) and slow start (a ramp under way); a node usable before is usable at once, no ramp.
 * Connect failures and the readiness hold are not kept: the first connect learns them again.
 */
public final class NodeHandover {

    /** A cluster built from nothing: no node is kept. */
    public static final NodeHandover NONE = new NodeHandover(null, new NodeState[0]);

    private final VirtualCluster previous;
    /** By index of the new cluster's nodes, the same node in {@link #previous}, or {@code null}. */
    private final NodeState[] previousOf;

    private NodeHandover(VirtualCluster previous, NodeState[] previousOf) {
        this.previous = previous;
        this.previousOf = previousOf;
    }

    /**
     * Pairs {@code next}'s nodes with {@code previous}'s by identity and carries over the state the nodes own
     * (agent sample, drain). {@code previous} may be {@code null}. The picker of {@code next} is rebuilt once the
     * components have taken over the rest (Resilience), not here.
     */
    public static NodeHandover between(VirtualCluster previous, VirtualCluster next) {
        if (previous == null) {
            return NONE;
        }
        Map<String, NodeState> byName = new HashMap<>();
        for (NodeState node : previous.nodes()) {
            byName.put(node.name(), node);
        }
        List<NodeState> nodes = next.nodes();
        NodeState[] pairs = new NodeState[nodes.size()];
        List<NodeConfig> before = previous.config().nodesOrEmpty();
        List<NodeConfig> after = next.config().nodesOrEmpty();
        for (NodeState node : nodes) {
            NodeState old = byName.get(node.name());
            if (old != null && sameNode(old, node)) {
                pairs[node.index()] = old;
                boolean fileDrainSame =
                        before.get(old.index()).drainOrDefault() == after.get(node.index()).drainOrDefault();
                node.adopt(old, fileDrainSame);
            }
        }
        return new NodeHandover(previous, pairs);
    }

    /** The identity rule: the same name and the same address (unresolved host, case aside, and port). */
    public static boolean sameNode(NodeState a, NodeState b) {
        return a.name().equals(b.name()) && a.address().equals(b.address());
    }

    /** The cluster replaced, or {@code null} for {@link #NONE}. */
    public VirtualCluster previous() {
        return previous;
    }

    /** The same node in the replaced cluster, or {@code null} when {@code node} is new. */
    public NodeState previousOf(NodeState node) {
        return node.index() < previousOf.length ? previousOf[node.index()] : null;
    }

    /** How many nodes were kept. */
    public int kept() {
        int n = 0;
        for (NodeState node : previousOf) {
            n += node == null ? 0 : 1;
        }
        return n;
    }
}
