package io.loadwise.bench.scale;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The scale rows of issue 35 from what {@code benchmarks/scale/run-scale.sh} wrote into a results folder
 * ({@code idle.csv}, {@code cluster.csv}, {@code routes/runs.csv}; any may be absent when its row did not run),
 * rendered as {@code README.md} (one table, then the folder's {@code notes.md} when someone wrote one: what the
 * figures mean and why), {@code scale.csv} and {@code scale.json} (the same figures, one per line: row, metric,
 * value, unit).
 */
public final class ScaleReport {

    /** One figure of the table. */
    public record Figure(String row, String metric, double value, String unit) {
    }

    private final List<Figure> figures = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private String analysis = "";

    private ScaleReport() {
    }

    /** Reads the raw files of {@code folder}. */
    public static ScaleReport read(Path folder) throws IOException {
        ScaleReport report = new ScaleReport();
        report.idle(csv(folder.resolve("idle.csv")));
        report.cluster(csv(folder.resolve("cluster.csv")));
        report.routes(csv(folder.resolve("routes/runs.csv")));
        Path analysis = folder.resolve("notes.md");
        if (Files.isRegularFile(analysis)) {
            report.analysis = Files.readString(analysis, StandardCharsets.UTF_8).strip();
        }
        return report;
    }

    public List<Figure> figures() {
        return List.copyOf(figures);
    }

    public List<String> notes() {
        return List.copyOf(notes);
    }

    private void add(String row, String metric, double value, String unit) {
        figures.add(new Figure(row, metric, value, unit));
    }

    private void idle(List<Map<String, String>> rows) {
        Map<String, Double> settledAt = new HashMap<>();
        Map<String, Double> answeredAt = new HashMap<>();
        for (Map<String, String> r : rows) {
            String proxy = r.get("proxy");
            int count = (int) num(r, "connections");
            String row = "idle " + proxy + " " + count;
            add(row, "connections held once answered", num(r, "established_answered"), "connections");
            add(row, "RSS once the last connection was answered", num(r, "rss_answered_mb"), "MB");
            add(row, "connections held after the settle time", num(r, "established_settled"), "connections");
            add(row, "RSS after " + (int) num(r, "settle_s") + " s", num(r, "rss_settled_mb"), "MB");
            add(row, "RSS per connection, answered", (num(r, "rss_answered_mb") - num(r, "rss_start_mb")) * 1024 / count,
                    "KiB");
            settledAt.put(proxy + " " + count, num(r, "rss_settled_mb"));
            answeredAt.put(proxy + " " + count, num(r, "rss_answered_mb"));
            if (num(r, "connections_asked") > count) {
                notes.add(String.format(Locale.ROOT, "%s held %,d of the %,d connections asked: %s.", proxy, count,
                        (long) num(r, "connections_asked"), r.getOrDefault("limited_by", "")));
            }
        }
        for (String key : settledAt.keySet().stream().sorted().toList()) {
            if (key.startsWith("loadwise ") && settledAt.containsKey("haproxy" + key.substring("loadwise".length()))) {
                String other = "haproxy" + key.substring("loadwise".length());
                String row = "idle ratio " + key.substring("loadwise ".length());
                add(row, "RSS Loadwise / HAProxy, answered", answeredAt.get(key) / answeredAt.get(other), "x");
                add(row, "RSS Loadwise / HAProxy, settled", settledAt.get(key) / settledAt.get(other), "x");
            }
        }
    }

    private void cluster(List<Map<String, String>> rows) {
        Map<Integer, Double> heap = new LinkedHashMap<>();
        Map<Integer, Double> later = new LinkedHashMap<>();
        Map<Integer, Double> wait = new LinkedHashMap<>();
        Map<Integer, List<Double>> reloads = new LinkedHashMap<>();
        for (Map<String, String> r : rows) {
            int nodes = (int) num(r, "nodes");
            switch (r.get("kind")) {
                case "heap" -> heap.put(nodes, num(r, "value"));
                case "heap-later" -> later.put(nodes, num(r, "value"));
                case "heap-wait" -> wait.put(nodes, num(r, "value"));
                case "reload" -> reloads.computeIfAbsent(nodes, n -> new ArrayList<>()).add(num(r, "value"));
                case "grow" -> add("cluster " + nodes, "reload growing the cluster to this size", num(r, "value"), "ms");
                case "all-up" -> add("cluster " + nodes, "seconds from that reload until every node is up (TCP checks"
                        + " 10 s apart; rise 2)", num(r, "value"), "s");
                case "up" -> add("cluster " + nodes, "nodes up right after the timed reloads", num(r, "value"), "nodes");
                default -> notes.add("cluster.csv: unknown kind " + r.get("kind"));
            }
        }
        heap.forEach((nodes, kib) -> add("cluster " + nodes, "heap after a full GC", kib / 1024, "MB"));
        reloads.forEach((nodes, ms) -> {
            add("cluster " + nodes, "reload, median of " + ms.size() + " (add/remove 1 %)", median(ms), "ms");
            add("cluster " + nodes, "reload, slowest", ms.stream().mapToDouble(Double::doubleValue).max().orElse(0), "ms");
        });
        later.forEach((nodes, kib) -> {
            double seconds = wait.getOrDefault(nodes, Double.NaN);
            add("cluster " + nodes, "heap after a full GC, " + (long) seconds + " s later", kib / 1024, "MB");
            if (heap.containsKey(nodes)) {
                double perNodeSecond = (kib - heap.get(nodes)) * 1024 / nodes / seconds;
                add("cluster " + nodes, "heap growth per node per second of uptime", perNodeSecond, "bytes");
            }
        });
        if (heap.size() == 2) {
            List<Integer> sizes = heap.keySet().stream().sorted().toList();
            int small = sizes.get(0);
            int large = sizes.get(1);
            add("cluster per node", "heap per node, (" + large + " - " + small + ") nodes",
                    (heap.get(large) - heap.get(small)) * 1024 / (large - small), "bytes");
        }
    }

    private void routes(List<Map<String, String>> rows) {
        Map<String, List<Double>> rate = new LinkedHashMap<>();
        Map<String, List<Double>> cpu = new LinkedHashMap<>();
        for (Map<String, String> r : rows) {
            rate.computeIfAbsent(r.get("target"), t -> new ArrayList<>()).add(num(r, "requests_per_s"));
            cpu.computeIfAbsent(r.get("target"), t -> new ArrayList<>()).add(num(r, "cpu_us_per_request"));
        }
        List<String> targets = rate.keySet().stream()
                .sorted((a, b) -> Integer.compare(routeCount(a), routeCount(b))).toList();
        for (String target : targets) {
            String row = "routes " + routeCount(target);
            add(row, "req/s, median of " + rate.get(target).size(), median(rate.get(target)), "req/s");
            add(row, "CPU per request, median", median(cpu.get(target)), "us");
        }
        if (targets.size() == 2) {
            String small = targets.get(0);
            String large = targets.get(1);
            String row = "routes ratio " + routeCount(large) + "/" + routeCount(small);
            add(row, "req/s", median(rate.get(large)) / median(rate.get(small)), "x");
            add(row, "CPU per request", median(cpu.get(large)) / median(cpu.get(small)), "x");
        }
    }

    /** {@code loadwise-routes1000-1t}: 1000. */
    static int routeCount(String target) {
        String digits = target.replaceAll("^loadwise-routes(\\d+)-.*$", "$1");
        return digits.equals(target) ? -1 : Integer.parseInt(digits);
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n == 0 ? Double.NaN : n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static double num(Map<String, String> row, String column) {
        String value = row.get(column);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("no " + column + " in " + row);
        }
        return Double.parseDouble(value);
    }

    /** A small CSV without quoted fields: a header line, then rows (none when the file does not exist). */
    static List<Map<String, String>> csv(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<Map<String, String>> rows = new ArrayList<>();
        if (lines.isEmpty()) {
            return rows;
        }
        String[] header = lines.get(0).split(",", -1);
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            String[] cells = line.split(",", -1);
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < header.length; i++) {
                row.put(header[i], i < cells.length ? cells[i] : "");
            }
            rows.add(row);
        }
        return rows;
    }

    /** The README: {@code header} (a title and how it was run), the table, then the notes. */
    public String markdown(String header) {
        StringBuilder md = new StringBuilder(header.strip()).append("\n\n| row | figure | value | unit |\n|---|---|---:|---|\n");
        for (Figure f : figures) {
            md.append("| ").append(f.row()).append(" | ").append(f.metric()).append(" | ").append(format(f.value()))
                    .append(" | ").append(f.unit()).append(" |\n");
        }
        if (figures.isEmpty()) {
            md.append("| (no row ran) | | | |\n");
        }
        if (!notes.isEmpty()) {
            md.append('\n');
            notes.forEach(n -> md.append("- ").append(n).append('\n'));
        }
        if (!analysis.isEmpty()) {
            md.append('\n').append(analysis).append('\n');
        }
        return md.toString();
    }

    static String format(double value) {
        if (Double.isNaN(value)) {
            return "-";
        }
        double abs = Math.abs(value);
        return String.format(Locale.ROOT, abs >= 1000 ? "%,.0f" : abs >= 10 ? "%.1f" : "%.2f", value);
    }

    /** README.md, scale.csv and scale.json into {@code folder}. */
    public void write(Path folder, String header) throws IOException {
        Files.writeString(folder.resolve("README.md"), markdown(header), StandardCharsets.UTF_8);
        StringBuilder csv = new StringBuilder("row,metric,value,unit\n");
        ObjectMapper json = new ObjectMapper();
        ArrayNode array = json.createArrayNode();
        for (Figure f : figures) {
            csv.append(f.row()).append(',').append(f.metric().replace(",", ";")).append(',')
                    .append(String.format(Locale.ROOT, "%.3f", f.value())).append(',').append(f.unit()).append('\n');
            ObjectNode o = array.addObject();
            o.put("row", f.row()).put("metric", f.metric()).put("value", f.value()).put("unit", f.unit());
        }
        Files.writeString(folder.resolve("scale.csv"), csv, StandardCharsets.UTF_8);
        ObjectNode root = json.createObjectNode();
        root.set("figures", array);
        notes.forEach(root.putArray("notes")::add);
        Files.writeString(folder.resolve("scale.json"), json.writerWithDefaultPrettyPrinter().writeValueAsString(root),
                StandardCharsets.UTF_8);
    }
}
