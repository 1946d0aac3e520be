package io.loadwise.bench.dispatcher;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadwise.wire.GcMetric;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Polls the dispatcher's stats once a second while a cell runs: its last-second Table 2 figures,
 * each node's total selections (the per-node selection traces of seed figures 51-63) and, for HTTP
 * rows, each node's heap, worker-thread and JDBC use from its agent (does VCN3 really run out?), and
 * per node its last second's connections, failures and queue use: what a herd looks like from the policy's
 * side (which node was full, which one failed, when the others got its work).
 */
public final class StatsTrace implements AutoCloseable {

    /** One second of the trace. */
    public record Point(long epochMillis, double throughput, double failed, double activeConnections,
            Map<String, Long> selections, Map<String, NodeLoad> load, Map<String, NodeSecond> detail) {
    }

    /**
     * One node at a poll as the dispatcher counted it (connections open now, requests failed in the last
     * second), its agent's queue use, the share of the last second its JVM spent collecting garbage and its old
     * generation's use after the last collection, in percent (NaN when unknown).
     */
    public record NodeSecond(double activeConnections, double failed, double queuePercent, double gcPercent,
            double oldAfterGcPercent) {
        static final NodeSecond UNKNOWN = new NodeSecond(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }

    private final AdminClient admin;
    private final boolean agents;
    private final ScheduledExecutorService timer;
    private final List<Point> points = new ArrayList<>();
    private volatile String lastError;

    private StatsTrace(AdminClient admin, boolean agents) {
        this.admin = admin;
        this.agents = agents;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "stats-trace");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts polling at once and then every second; {@code agents}: also read each node's agent sample. */
    public static StatsTrace start(AdminClient admin, boolean agents) {
        StatsTrace trace = new StatsTrace(admin, agents);
        trace.timer.scheduleAtFixedRate(trace::sample, 0, 1, TimeUnit.SECONDS);
        return trace;
    }

    private void sample() {
        try {
            JsonNode stats = admin.stats(DispatcherProcess.CLUSTER);
            JsonNode last = stats.path("lastSecond");
            Map<String, Long> selections = new LinkedHashMap<>();
            Map<String, NodeLoad> load = new LinkedHashMap<>();
            Map<String, NodeSecond> detail = new LinkedHashMap<>();
            for (JsonNode node : stats.path("nodes")) {
                String name = node.path("name").asText();
                selections.put(name, node.path("selections").asLong());
                JsonNode metrics = agents ? admin.nodeMetrics(DispatcherProcess.CLUSTER, name) : null;
                load.put(name, metrics == null ? NodeLoad.UNKNOWN : NodeLoad.of(metrics));
                JsonNode second = node.path("lastSecond");
                detail.put(name, new NodeSecond(number(node.path("totals").path("activeConnections")),
                        number(second.path("TD_AVE_FAIL_RQSTS")),
                        metrics == null ? Double.NaN : NodeLoad.queuePercent(metrics),
                        metrics == null ? Double.NaN : NodeLoad.gcPercent(metrics, GcMetric.JVM_GC_TIME_PCT),
                        metrics == null ? Double.NaN : NodeLoad.gcPercent(metrics, GcMetric.JVM_OLD_AFTER_GC_PCT)));
            }
            Point point = new Point(System.currentTimeMillis(), last.path("TD_AVE_THROUGHPUT").asDouble(),
                    last.path("TD_AVE_FAIL_RQSTS").asDouble(), last.path("TD_AVE_CONNS_ACT").asDouble(), selections,
                    load, detail);
            synchronized (points) {
                points.add(point);
            }
        } catch (IOException | RuntimeException e) {
            lastError = e.toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The points so far, oldest first. */
    public List<Point> points() {
        synchronized (points) {
            return List.copyOf(points);
        }
    }

    /** The last polling error, or null. */
    public String lastError() {
        return lastError;
    }

    /** Per node, the highest heap, thread and JDBC use seen (NaN where the agent reported nothing). */
    public Map<String, NodeLoad> peakLoad() {
        Map<String, NodeLoad> peak = new LinkedHashMap<>();
        for (Point p : points()) {
            p.load().forEach((name, load) -> peak.merge(name, load, NodeLoad::max));
        }
        return peak;
    }

    /**
     * Writes {@code epochMillis,throughput,failed,activeConnections,<node>...,<node> heap%,<node> threads%,
     * <node> jdbc%...,<node> active,<node> failed,<node> queue%...,<node> gc%,<node> old%...}: node columns are selections per
     * second, then each node's agent figures, then its open connections and last second's failures at the
     * dispatcher and its queue use (empty when unknown), then its GC time share and old generation after GC. Newer columns come after the older
     * ones, so readers of those still find them in place.
     */
    public void write(Path csv) throws IOException {
        write(points(), csv);
    }

    /** Writes {@code all} as {@link #write(Path)} describes. */
    static void write(List<Point> all, Path csv) throws IOException {
        StringBuilder text = new StringBuilder("epochMillis,throughput,failed,activeConnections");
        List<String> names = all.isEmpty() ? List.of() : List.copyOf(all.get(all.size() - 1).selections().keySet());
        names.forEach(n -> text.append(',').append(n));
        names.forEach(n -> text.append(',').append(n).append(" heap%,").append(n).append(" threads%,").append(n)
                .append(" jdbc%"));
        names.forEach(n -> text.append(',').append(n).append(" active,").append(n).append(" failed,").append(n)
                .append(" queue%"));
        names.forEach(n -> text.append(',').append(n).append(" gc%,").append(n).append(" old%"));
        text.append('\n');
        for (int i = 0; i < all.size(); i++) {
            Point p = all.get(i);
            text.append(p.epochMillis()).append(String.format(Locale.ROOT, ",%.2f,%.2f,%.2f", p.throughput(),
                    p.failed(), p.activeConnections()));
            for (String name : names) {
                long before = i == 0 ? 0 : all.get(i - 1).selections().getOrDefault(name, 0L);
                text.append(',').append(p.selections().getOrDefault(name, 0L) - before);
            }
            for (String name : names) {
                NodeLoad load = p.load().getOrDefault(name, NodeLoad.UNKNOWN);
                text.append(',').append(percent(load.heapPercent())).append(',').append(percent(load.threadsPercent()))
                        .append(',').append(percent(load.jdbcPercent()));
            }
            for (String name : names) {
                NodeSecond second = p.detail().getOrDefault(name, NodeSecond.UNKNOWN);
                text.append(',').append(percent(second.activeConnections())).append(',')
                        .append(percent(second.failed())).append(',').append(percent(second.queuePercent()));
            }
            for (String name : names) {
                NodeSecond second = p.detail().getOrDefault(name, NodeSecond.UNKNOWN);
                text.append(',').append(percent(second.gcPercent())).append(',')
                        .append(percent(second.oldAfterGcPercent()));
            }
            text.append('\n');
        }
        Files.writeString(csv, text, StandardCharsets.UTF_8);
    }

    private static String percent(double value) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.1f", value);
    }

    private static double number(JsonNode value) {
        return value.isNumber() ? value.asDouble() : Double.NaN;
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
