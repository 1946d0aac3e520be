package io.loadwise.dispatcher.health;

import io.loadwise.dispatcher.cluster.NodeHandover;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.HealthCheckConfig;
import io.loadwise.dispatcher.config.NodeConfig;
import java.net.http.HttpClient;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.LongSupplier;

/**
 * The active health checks of one cluster: one {@link NodeCheck} per node whose configuration (the
 * cluster's {@code healthCheck}, overridden field by field by the node's) asks for one. The checks run on
 * the shared {@code scheduler} and the JDK HTTP client, off the event loops, and bypass the proxy: they
 * are no client traffic and touch no Table 2 counter.
 */
public final class HealthChecker implements AutoCloseable {

    private final List<NodeCheck> checks = new ArrayList<>();

    public HealthChecker(VirtualCluster cluster, HttpClient http, ScheduledExecutorService scheduler,
            LongSupplier wallClock) {
        ClusterConfig config = cluster.config();
        List<NodeConfig> nodes = config.nodesOrEmpty();
        for (NodeState node : cluster.nodes()) {
            NodeConfig nodeConfig = nodes.get(node.index());
            HealthCheckConfig spec = HealthCheckConfig.merge(config.healthCheck(), nodeConfig.healthCheck());
            if (spec != null) {
                checks.add(new NodeCheck(cluster, node, spec, http, scheduler, wallClock));
            }
        }
    }

    /** Whether any node of the cluster is checked. */
    public boolean active() {
        return !checks.isEmpty();
    }

    public void start() {
        start(null, NodeHandover.NONE);
    }

    /**
     * Starts the checks of a rebuilt cluster: a node kept by {@code handover} whose check is the same as in
     * {@code previous} (the replaced cluster's checker, or {@code null}) goes on from its state and counters.
     */
    public void start(HealthChecker previous, NodeHandover handover) {
        Map<NodeState, NodeCheck> before = new IdentityHashMap<>();
        if (previous != null) {
            for (NodeCheck check : previous.checks) {
                before.put(check.node(), check);
            }
        }
        for (NodeCheck check : checks) {
            NodeState old = handover.previousOf(check.node());
            check.start(old == null ? null : before.get(old));
        }
    }

    /** Stops every check; the nodes keep their last state. */
    @Override
    public void close() {
        checks.forEach(NodeCheck::stop);
    }
}
