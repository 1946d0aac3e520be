package io.loadwise.bench.policy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns JMH's CSV output ({@code -rf csv}, run with {@code -prof gc}) into {@code summary.csv} and
 * {@code summary.md}: ns/op and B/op per policy and cluster size.
 *
 * <p>Usage: {@code PolicyBenchSummary <jmh.csv> <out-dir> <settings text>}.
 */
public final class PolicyBenchSummary {

    /** Target from the policies issue: one selection in at most this many nanoseconds. */
    static final double TARGET_NANOS = 200;

    private record Cell(double nanos, double nanosError, double bytes) {
    }

    private PolicyBenchSummary() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            throw new IllegalArgumentException("usage: PolicyBenchSummary <jmh.csv> <out-dir> <settings>");
        }
        Map<String, Map<Integer, double[]>> raw = read(Path.of(args[0]));
        Map<String, Map<Integer, Cell>> cells = new LinkedHashMap<>();
        raw.forEach((row, bySize) -> {
            Map<Integer, Cell> out = new TreeMap<>();
            bySize.forEach((size, v) -> out.put(size, new Cell(v[0], v[1], v[2])));
            cells.put(row, out);
        });
        Path outDir = Path.of(args[1]);
        Files.createDirectories(outDir);
        Files.writeString(outDir.resolve("summary.csv"), csv(cells), StandardCharsets.UTF_8);
        Files.writeString(outDir.resolve("summary.md"), markdown(cells, args[2]), StandardCharsets.UTF_8);
    }

    /** Row name (policy id, or "baseline: bare scan") to size to {ns/op, ns error, B/op}. */
    private static Map<String, Map<Integer, double[]>> read(Path csv) throws IOException {
        Map<String, Map<Integer, double[]>> rows = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        List<String> header = fields(lines.get(0));
        int nodesColumn = header.indexOf("Param: nodes");
        int policyColumn = header.indexOf("Param: policy");
        for (String line : lines.subList(1, lines.size())) {
            List<String> f = fields(line);
            String benchmark = f.get(0);
            boolean baseline = benchmark.contains("NodeScanBaselineBenchmark");
            String row = baseline ? "baseline: bare scan" : f.get(policyColumn);
            int size = Integer.parseInt(f.get(nodesColumn));
            double[] cell = rows.computeIfAbsent(row, r -> new TreeMap<>())
                    .computeIfAbsent(size, s -> new double[] {Double.NaN, Double.NaN, Double.NaN});
            double score = Double.parseDouble(f.get(4));
            if (benchmark.endsWith("gc.alloc.rate.norm")) {
                cell[2] = score;
            } else if (!benchmark.contains(":")) {
                cell[0] = score;
                cell[1] = Double.parseDouble(f.get(5));
            }
        }
        return rows;
    }

    private static List<String> fields(String line) {
        List<String> fields = new ArrayList<>();
        for (String f : line.split(",", -1)) {
            fields.add(f.startsWith("\"") && f.endsWith("\"") && f.length() >= 2 ? f.substring(1, f.length() - 1) : f);
        }
        return fields;
    }

    private static String csv(Map<String, Map<Integer, Cell>> cells) {
        StringBuilder out = new StringBuilder("policy,nodes,ns_per_op,ns_error_99_9,bytes_per_op\n");
        cells.forEach((row, bySize) -> bySize.forEach((size, c) -> out.append(String.format(Locale.ROOT,
                "%s,%d,%.1f,%.1f,%.3f%n", row, size, c.nanos, c.nanosError, c.bytes))));
        return out.toString();
    }

    private static String markdown(Map<String, Map<Integer, Cell>> cells, String settings) {
        List<Integer> sizes = new ArrayList<>();
        cells.values().forEach(bySize -> bySize.keySet().forEach(s -> {
            if (!sizes.contains(s)) {
                sizes.add(s);
            }
        }));
        sizes.sort(null);
        StringBuilder out = new StringBuilder("# Policy selection cost\n\n");
        out.append("One `Picker.pick(null)` per operation, single thread, `PolicySelectionBenchmark` in ")
                .append("`benchmarks/jmh`. Cells are ns/op ± 99.9% error, then B/op from `-prof gc` ")
                .append("(`gc.alloc.rate.norm`). Target: ≤ ").append((int) TARGET_NANOS)
                .append(" ns and 0 B/op; ✗ marks a cell over the time target.\n\n")
                .append("The row `baseline: bare scan` (`NodeScanBaselineBenchmark`) is the cheapest possible ")
                .append("least-connections loop over the same kind of nodes, measured in the same run: on a ")
                .append("shared machine compare the scanning policies with it rather than with the target. ")
                .append("A load average above the CPU count in the settings line means the figures are ")
                .append("inflated by other processes and their error bars are wide.\n\n");
        out.append("Settings: ").append(settings).append("\n\n| policy |");
        for (int size : sizes) {
            out.append(' ').append(size).append(" nodes |");
        }
        out.append("\n|---|");
        sizes.forEach(s -> out.append("---:|"));
        out.append('\n');
        cells.forEach((row, bySize) -> {
            out.append("| ").append(row).append(" |");
            for (int size : sizes) {
                Cell c = bySize.get(size);
                out.append(c == null ? " – |" : String.format(Locale.ROOT, " %.1f ± %.1f ns%s, %s B |", c.nanos,
                        c.nanosError, c.nanos > TARGET_NANOS ? " ✗" : "", bytes(c.bytes)));
            }
            out.append('\n');
        });
        return out.toString();
    }

    /** JMH reports a few thousandths of a byte per op for its own bookkeeping; show that as 0. */
    private static String bytes(double b) {
        return Double.isNaN(b) ? "?" : b < 0.5 ? "0" : String.format(Locale.ROOT, "%.1f", b);
    }
}
