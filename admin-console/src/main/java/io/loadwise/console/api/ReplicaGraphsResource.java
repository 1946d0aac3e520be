package io.loadwise.console.api;

import io.loadwise.console.replicas.PeerSeries;
import io.loadwise.console.replicas.ReplicaSeries;
import io.loadwise.console.replicas.ReplicaSeriesView;
import io.loadwise.console.store.Series;
import io.loadwise.console.store.SeriesGraph;
import io.loadwise.console.store.SeriesPoints;
import io.loadwise.console.store.StoreKey;
import io.loadwise.console.store.Window;
import io.loadwise.dispatcher.control.ClusterControl;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A cluster series over every live replica: {@code GET /api/clusters/{c}/replicas/series/{metric}.json} and
 * {@code GET /api/clusters/{c}/replicas/graphs/{metric}.png}, each with {@code ?window=} and
 * {@code ?view=sum} (the default: one series, the sum over the replicas that answered; only for
 * {@linkplain ReplicaSeries#ADDITIVE additive} series, others are refused with 400) or {@code ?view=each} (one
 * series per replica, any series). Every answer says which replicas answered and why the others did not.
 */
final class ReplicaGraphsResource {

    private static final List<String> VIEWS = List.of("sum", "each");

    private final ClusterControl control;
    private final GraphsResource graphs;
    private final PeerSeries peers;

    ReplicaGraphsResource(ClusterControl control, GraphsResource graphs, PeerSeries peers) {
        this.control = control;
        this.graphs = graphs;
        this.peers = peers;
    }

    Reply series(ApiCall call) throws ApiException, IOException {
        Asked asked = asked(call, ".json");
        ReplicaSeriesView view = collect(asked);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("cluster", asked.cluster);
        body.put("metric", asked.series.metric());
        body.put("unit", asked.series.unit());
        body.put("window", asked.window.key());
        body.put("view", asked.view);
        body.put("additive", ReplicaSeries.additive(asked.series));
        SeriesPoints grid = view.grid();
        body.put("start", grid.start());
        body.put("end", grid.end());
        body.put("step", grid.step());
        body.put("archiveStep", grid.archiveStep());
        body.put("pointCap", SeriesPoints.MAX_POINTS);
        body.put("consolidated", grid.step() != grid.archiveStep());
        body.put("timestamps", grid.timestamps());
        if (asked.view.equals("sum")) {
            body.put("values", values(view.sum()));
        }
        List<Map<String, Object>> replicas = new ArrayList<>();
        int answered = 0;
        for (ReplicaSeriesView.Replica r : view.replicas()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("id", r.id());
            entry.put("self", r.self());
            entry.put("answered", r.answered());
            entry.put("problem", r.problem());
            if (asked.view.equals("each")) {
                entry.put("values", r.answered() ? values(r.points()) : null);
            }
            replicas.add(entry);
            answered += r.answered() ? 1 : 0;
        }
        body.put("answered", answered);
        body.put("replicas", replicas);
        body.put("registryProblem", view.registryProblem());
        return Reply.ok(body);
    }

    Reply graph(ApiCall call) throws ApiException, IOException {
        Asked asked = asked(call, ".png");
        ReplicaSeriesView view = collect(asked);
        List<SeriesGraph.Line> lines = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        int answered = 0;
        for (ReplicaSeriesView.Replica r : view.replicas()) {
            if (r.answered()) {
                answered++;
                if (asked.view.equals("each")) {
                    lines.add(new SeriesGraph.Line(r.id() + (r.self() ? " (this one)" : ""), r.points()));
                }
            } else {
                missing.add(r.id());
            }
        }
        String title;
        if (asked.view.equals("sum")) {
            lines.add(new SeriesGraph.Line("sum of " + answered + " replica" + (answered == 1 ? "" : "s"), view.sum()));
            title = asked.cluster + ", sum over replicas";
        } else {
            title = asked.cluster + ", each replica";
        }
        String note = missing.isEmpty() ? null : "not answering, left out: " + String.join(", ", missing);
        if (view.registryProblem() != null) {
            note = "replica registry unreachable: this replica only";
        }
        return Reply.raw("image/png", SeriesGraph.lines(asked.series, asked.window, title, lines, note));
    }

    private ReplicaSeriesView collect(Asked asked) throws ApiException, IOException {
        SeriesPoints own = graphs.clusterPoints(asked.cluster, asked.series, asked.window);
        return ReplicaSeriesView.collect(control, peers, asked.cluster, asked.series, asked.window, own);
    }

    /** What a call asks for, checked: a known cluster series, a window, a view it can have. */
    private record Asked(String cluster, Series series, Window window, String view) {
    }

    private static Asked asked(ApiCall call, String extension) throws ApiException {
        String cluster = call.pathParam(0);
        Series series = GraphsResource.series(StoreKey.cluster(cluster), call.pathParam(1), extension);
        Window window = GraphsResource.window(call);
        String text = call.query("view");
        String view = text == null ? "sum" : text.trim();
        if (!VIEWS.contains(view)) {
            throw new ApiException(400, "query parameter view: '" + text + "' is not one of " + VIEWS, VIEWS);
        }
        if (view.equals("sum") && !ReplicaSeries.additive(series)) {
            throw new ApiException(400, ReplicaSeries.notAdditive(series),
                    ReplicaSeries.ADDITIVE.stream().sorted().toList());
        }
        return new Asked(cluster, series, window, view);
    }

    private static Double[] values(SeriesPoints points) {
        Double[] out = new Double[points.size()];
        for (int i = 0; i < out.length; i++) {
            double v = points.values()[i];
            out[i] = Double.isFinite(v) ? v : null;
        }
        return out;
    }
}
