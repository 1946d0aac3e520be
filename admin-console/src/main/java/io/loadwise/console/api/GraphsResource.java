package io.loadwise.console.api;

import io.loadwise.console.replicas.SeriesDocument;
import io.loadwise.console.store.MetricStore;
import io.loadwise.console.store.MetricStores;
import io.loadwise.console.store.Series;
import io.loadwise.console.store.SeriesCsv;
import io.loadwise.console.store.SeriesGraph;
import io.loadwise.console.store.SeriesGroup;
import io.loadwise.console.store.SeriesPoints;
import io.loadwise.console.store.StoreKey;
import io.loadwise.console.store.Window;
import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.ClusterStatus;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Graphs (PNG) and series (CSV or JSON) from the metric stores, and the list of what there is:
 * {@code /api/clusters/{name}/graphs[/{metric}.png]}, {@code /api/clusters/{name}/series/{metric}.csv|.json} and
 * the same under {@code /nodes/{node}}. A deleted cluster's or node's recorded history stays readable.
 */
final class GraphsResource {

    private static final String PNG = ".png";
    private static final String CSV = ".csv";
    private static final String JSON = ".json";

    private final ClusterControl control;
    private final MetricStores stores;

    GraphsResource(ClusterControl control, MetricStores stores) {
        this.control = control;
        this.stores = stores;
    }

    Reply listCluster(ApiCall call) throws ApiException, IOException {
        return list(StoreKey.cluster(call.pathParam(0)));
    }

    Reply listNode(ApiCall call) throws ApiException, IOException {
        return list(StoreKey.node(call.pathParam(0), call.pathParam(1)));
    }

    Reply clusterGraph(ApiCall call) throws ApiException, IOException {
        return graph(StoreKey.cluster(call.pathParam(0)), call.pathParam(1), call);
    }

    Reply nodeGraph(ApiCall call) throws ApiException, IOException {
        return graph(StoreKey.node(call.pathParam(0), call.pathParam(1)), call.pathParam(2), call);
    }

    Reply clusterSeries(ApiCall call) throws ApiException, IOException {
        return series(StoreKey.cluster(call.pathParam(0)), call.pathParam(1), call);
    }

    Reply nodeSeries(ApiCall call) throws ApiException, IOException {
        return series(StoreKey.node(call.pathParam(0), call.pathParam(1)), call.pathParam(2), call);
    }

    /** {@code {metric}.csv} or {@code {metric}.json}. */
    private Reply series(StoreKey key, String file, ApiCall call) throws ApiException, IOException {
        if (file.endsWith(JSON)) {
            return json(key, file, call);
        }
        if (!file.endsWith(CSV)) {
            throw ApiException.notFound("expected {metric}.csv or {metric}.json, got '" + file + "'");
        }
        return csv(key, file, call);
    }

    private Reply json(StoreKey key, String file, ApiCall call) throws ApiException, IOException {
        MetricStore store = store(key);
        Series series = series(key, file, JSON);
        Window window = window(call);
        SeriesPoints points = SeriesPoints.read(store, series, window, nowSeconds());
        return Reply.ok(SeriesDocument.of(key.cluster(), series, window, control.replicaId(), points));
    }

    /**
     * This replica's points of a cluster series, for the replica views: the cluster must be live here or have
     * recorded metrics.
     */
    SeriesPoints clusterPoints(String cluster, Series series, Window window) throws ApiException, IOException {
        return SeriesPoints.read(store(StoreKey.cluster(cluster)), series, window, nowSeconds());
    }

    private Reply list(StoreKey key) throws ApiException, IOException {
        if (!live(key) && stores.existing(key) == null) {
            throw notFound(key);
        }
        String base = basePath(key);
        Map<String, List<Map<String, String>>> groups = new LinkedHashMap<>();
        for (Map.Entry<SeriesGroup, List<Series>> group : key.catalog().byGroup().entrySet()) {
            List<Map<String, String>> members = new ArrayList<>();
            for (Series s : group.getValue()) {
                String encoded = URLEncoder.encode(s.metric(), StandardCharsets.UTF_8);
                Map<String, String> entry = new LinkedHashMap<>();
                entry.put("metric", s.metric());
                entry.put("unit", s.unit());
                entry.put("description", s.description());
                entry.put("png", base + "/graphs/" + encoded + PNG);
                entry.put("csv", base + "/series/" + encoded + CSV);
                entry.put("json", base + "/series/" + encoded + JSON);
                members.add(entry);
            }
            groups.put(group.getKey().key(), members);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("cluster", key.cluster());
        if (key.isNode()) {
            body.put("node", key.node());
        }
        body.put("windows", Window.keys());
        body.put("groups", groups);
        return Reply.ok(body);
    }

    private Reply graph(StoreKey key, String file, ApiCall call) throws ApiException, IOException {
        MetricStore store = store(key);
        Series series = series(key, file, PNG);
        Window window = window(call);
        String title = key.isNode() ? key.cluster() + " / " + key.node() : key.cluster();
        byte[] png = SeriesGraph.png(store, series, window, title, nowSeconds());
        return Reply.raw("image/png", png);
    }

    private Reply csv(StoreKey key, String file, ApiCall call) throws ApiException, IOException {
        MetricStore store = store(key);
        Series series = series(key, file, CSV);
        Window window = window(call);
        String text = SeriesCsv.csv(store, series, window, nowSeconds());
        return Reply.raw("text/csv; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The store of a cluster or node, also of a deleted one within the retention period; {@code null} for a
     * live one without a store (not written yet, or refused by the disk budget), whose series are all
     * unknown. Readers never create stores: only the writer does, within the budget.
     */
    private MetricStore store(StoreKey key) throws ApiException, IOException {
        MetricStore store = stores.existing(key);
        if (store == null && !live(key)) {
            throw notFound(key);
        }
        return store;
    }

    private static ApiException notFound(StoreKey key) {
        return ApiException.notFound(key.isNode()
                ? "no node " + key.node() + " in cluster " + key.cluster() + " and no recorded metrics of it"
                : "no cluster " + key.cluster() + " and no recorded metrics of it");
    }

    private boolean live(StoreKey key) {
        ClusterStatus cluster = control.clusterStatus(key.cluster());
        return cluster != null && (!key.isNode() || cluster.node(key.node()) != null);
    }

    static Series series(StoreKey key, String file, String extension) throws ApiException {
        if (!file.endsWith(extension)) {
            throw ApiException.notFound("expected {metric}" + extension + ", got '" + file + "'");
        }
        String metric = file.substring(0, file.length() - extension.length());
        Series series = key.catalog().find(metric);
        if (series == null) {
            throw new ApiException(404, "unknown metric '" + metric + "' for " + key + "; known metrics are listed in details",
                    key.catalog().metricNames());
        }
        return series;
    }

    static Window window(ApiCall call) throws ApiException {
        String text = call.query("window");
        if (text == null) {
            return Window.ONE_HOUR;
        }
        Window window = Window.parse(text.trim());
        if (window == null) {
            throw new ApiException(400, "query parameter window: '" + text + "' is not one of " + Window.keys(),
                    Window.keys());
        }
        return window;
    }

    private static String basePath(StoreKey key) {
        String cluster = "/api/clusters/" + key.cluster();
        return key.isNode() ? cluster + "/nodes/" + key.node() : cluster;
    }

    private static long nowSeconds() {
        return System.currentTimeMillis() / 1000;
    }
}
