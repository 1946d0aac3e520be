package io.loadwise.console.api;

import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.ClusterStatus;
import io.loadwise.dispatcher.control.NodeStatus;
import io.loadwise.dispatcher.metrics.MetricsSnapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/clusters/{name}/stats[?history=N]}: the last second of Table 2 figures, totals and
 * averages since start, per-node selections and totals, and with {@code history} the last N seconds.
 */
final class StatsResource {

    /** The dispatcher keeps one hour of per-second figures. */
    static final int MAX_HISTORY_SECONDS = 3600;

    private final ClusterControl control;

    StatsResource(ClusterControl control) {
        this.control = control;
    }

    Reply get(ApiCall call) throws ApiException {
        ClusterStatus cluster = ClustersResource.require(control, call.pathParam(0));
        Integer historySeconds = call.queryInt("history", 1, MAX_HISTORY_SECONDS);
        List<MetricsSnapshot> history = control.history(cluster.name());

        Map<String, Object> body = new LinkedHashMap<>();
        body.put("cluster", cluster.name());
        body.put("lastSecond", StatsView.clusterTable2(last(history)));
        body.put("totals", StatsView.clusterTotals(cluster.totals()));
        body.put("averages", StatsView.averages(history));
        List<Map<String, Object>> nodes = new ArrayList<>();
        for (NodeStatus node : cluster.nodes()) {
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("name", node.name());
            n.put("selections", node.counters().selections());
            n.put("recentResponseTimeMillis", Figures.finite(node.recentResponseTimeMillis()));
            n.put("lastSecond", StatsView.table2(last(control.nodeHistory(cluster.name(), node.name()))));
            n.put("totals", StatsView.totals(node.counters()));
            nodes.add(n);
        }
        body.put("nodes", nodes);
        if (historySeconds != null) {
            List<Map<String, Object>> seconds = new ArrayList<>();
            for (MetricsSnapshot s : history.subList(Math.max(0, history.size() - historySeconds), history.size())) {
                seconds.add(StatsView.clusterTable2(s));
            }
            body.put("history", seconds);
        }
        return Reply.ok(body);
    }

    private static MetricsSnapshot last(List<MetricsSnapshot> history) {
        return history == null || history.isEmpty() ? null : history.get(history.size() - 1);
    }
}
