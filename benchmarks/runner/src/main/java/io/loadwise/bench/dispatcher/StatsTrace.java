package io.loadwise.bench.dispatcher;

import com.fasterxml.jackson.databind.JsonNode;
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
 * Polls the dispatcher's stats once a second while a cell runs: its last-second Table 2 figures and
 * each node's total selections, the raw material of the per-node selection traces (seed figures 51-63).
 */
public final class StatsTrace implements AutoCloseable {

    /** One second of the trace. */
    public record Point(long epochMillis, double throughput, double failed, double activeConnections,
            Map<String, Long> selections) {
    }

    private final AdminClient admin;
    private final ScheduledExecutorService timer;
    private final List<Point> points = new ArrayList<>();
    private volatile String lastError;

    private StatsTrace(AdminClient admin) {
        this.admin = admin;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "stats-trace");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts polling at once and then every second. */
    public static StatsTrace start(AdminClient admin) {
        StatsTrace trace = new StatsTrace(admin);
        trace.timer.scheduleAtFixedRate(trace::sample, 0, 1, TimeUnit.SECONDS);
        return trace;
    }

    private void sample() {
        try {
            JsonNode stats = admin.stats(DispatcherProcess.CLUSTER);
            JsonNode last = stats.path("lastSecond");
            Map<String, Long> selections = new LinkedHashMap<>();
            for (JsonNode node : stats.path("nodes")) {
                selections.put(node.path("name").asText(), node.path("selections").asLong());
            }
            Point point = new Point(System.currentTimeMillis(), last.path("TD_AVE_THROUGHPUT").asDouble(),
                    last.path("TD_AVE_FAIL_RQSTS").asDouble(), last.path("TD_AVE_CONNS_ACT").asDouble(), selections);
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

    /** Writes {@code epochMillis,throughput,failed,activeConnections,<node>...} (node columns: selections per second). */
    public void write(Path csv) throws IOException {
        List<Point> all = points();
        StringBuilder text = new StringBuilder("epochMillis,throughput,failed,activeConnections");
        List<String> names = all.isEmpty() ? List.of() : List.copyOf(all.get(all.size() - 1).selections().keySet());
        names.forEach(n -> text.append(',').append(n));
        text.append('\n');
        for (int i = 0; i < all.size(); i++) {
            Point p = all.get(i);
            text.append(p.epochMillis()).append(String.format(Locale.ROOT, ",%.2f,%.2f,%.2f", p.throughput(),
                    p.failed(), p.activeConnections()));
            for (String name : names) {
                long before = i == 0 ? 0 : all.get(i - 1).selections().getOrDefault(name, 0L);
                text.append(',').append(p.selections().getOrDefault(name, 0L) - before);
            }
            text.append('\n');
        }
        Files.writeString(csv, text, StandardCharsets.UTF_8);
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
