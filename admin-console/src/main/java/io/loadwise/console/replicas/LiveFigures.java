package io.loadwise.console.replicas;

import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.ClusterStatus;
import io.loadwise.dispatcher.control.NodeStatus;
import io.loadwise.dispatcher.metrics.MetricsSnapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One replica's live figures, the ones that add up over replicas: per cluster the last second's throughput,
 * failures and active connections, totals since start, and per node the selections. This is what
 * {@code GET /api/figures} answers and what a console fetches from every other replica.
 *
 * @param replica the replica's id, {@code null} with the file store
 * @param clusters in configuration order
 */
public record LiveFigures(String replica, List<Cluster> clusters) {

    public LiveFigures {
        clusters = clusters == null ? List.of() : List.copyOf(clusters);
    }

    /**
     * @param throughput requests completed per second over the last second
     * @param failuresPerSecond requests failed per second over the last second
     * @param completed since start
     * @param failed since start
     */
    public record Cluster(String name, double throughput, double failuresPerSecond, long activeConnections,
            long completed, long failed, List<Node> nodes) {

        public Cluster {
            nodes = nodes == null ? List.of() : List.copyOf(nodes);
        }

        /** The node with this name, or {@code null}. */
        public Node node(String nodeName) {
            for (Node n : nodes) {
                if (n.name().equals(nodeName)) {
                    return n;
                }
            }
            return null;
        }
    }

    /**
     * @param selectionsPerSecond times the policy picked the node over the last second
     * @param selections since start
     */
    public record Node(String name, double selectionsPerSecond, long selections) {
    }

    /** The cluster with this name, or {@code null}. */
    public Cluster cluster(String name) {
        for (Cluster c : clusters) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        return null;
    }

    /** This replica's figures now. */
    public static LiveFigures of(ClusterControl control) {
        List<Cluster> clusters = new ArrayList<>();
        for (ClusterStatus status : control.clusterStatuses()) {
            MetricsSnapshot now = last(control.history(status.name()));
            List<Node> nodes = new ArrayList<>();
            for (NodeStatus node : status.nodes()) {
                MetricsSnapshot nodeNow = last(control.nodeHistory(status.name(), node.name()));
                nodes.add(new Node(node.name(), nodeNow == null ? 0 : finite(nodeNow.selections()),
                        node.counters().selections()));
            }
            clusters.add(new Cluster(status.name(), now == null ? 0 : finite(now.throughput()),
                    now == null ? 0 : finite(now.failed()), now == null ? 0 : now.activeConnections(),
                    status.totals() == null ? 0 : status.totals().completed(),
                    status.totals() == null ? 0 : status.totals().failed(), nodes));
        }
        return new LiveFigures(control.replicaId(), clusters);
    }

    /**
     * The sum over replicas, cluster by cluster and node by node (matched by name). A cluster or node only some
     * replicas have yet (a change still on its way through etcd) counts with what those replicas report.
     */
    public static LiveFigures sum(List<LiveFigures> replicas) {
        Map<String, Cluster> sums = new LinkedHashMap<>();
        for (LiveFigures figures : replicas) {
            for (Cluster c : figures.clusters()) {
                sums.merge(c.name(), c, LiveFigures::add);
            }
        }
        return new LiveFigures(null, new ArrayList<>(sums.values()));
    }

    private static Cluster add(Cluster a, Cluster b) {
        Map<String, Node> nodes = new LinkedHashMap<>();
        for (Node n : a.nodes()) {
            nodes.put(n.name(), n);
        }
        for (Node n : b.nodes()) {
            nodes.merge(n.name(), n, (x, y) -> new Node(x.name(), x.selectionsPerSecond() + y.selectionsPerSecond(),
                    x.selections() + y.selections()));
        }
        return new Cluster(a.name(), a.throughput() + b.throughput(), a.failuresPerSecond() + b.failuresPerSecond(),
                a.activeConnections() + b.activeConnections(), a.completed() + b.completed(), a.failed() + b.failed(),
                new ArrayList<>(nodes.values()));
    }

    private static double finite(double value) {
        return Double.isFinite(value) ? value : 0;
    }

    private static MetricsSnapshot last(List<MetricsSnapshot> history) {
        return history == null || history.isEmpty() ? null : history.get(history.size() - 1);
    }
}
