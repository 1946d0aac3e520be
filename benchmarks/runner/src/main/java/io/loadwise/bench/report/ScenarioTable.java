package io.loadwise.bench.report;

import io.loadwise.bench.sweep.CellResult;
import io.loadwise.bench.sweep.PolicyRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One scenario's table in the layout of seed tables 10-14: a row per policy, then Min, Max, Average and
 * Standard Deviation (sample) over the policies that ran. Markdown and CSV.
 */
final class ScenarioTable {

    private final String title;
    private final String settingsLine;
    private final List<PolicyRow> rows;
    private final Map<PolicyRow, CellResult> results;

    ScenarioTable(String title, String settingsLine, List<PolicyRow> rows, Map<PolicyRow, CellResult> results) {
        this.title = title;
        this.settingsLine = settingsLine;
        this.rows = rows;
        this.results = results;
    }

    String markdown() {
        StringBuilder md = new StringBuilder("# ").append(title).append("\n\n").append(settingsLine).append("\n\n");
        md.append("| Task Assignment Policy | Weight Ratio |");
        Column.TABLE.forEach(c -> md.append(' ').append(c.header()).append(" |"));
        md.append("\n|---|---|");
        Column.TABLE.forEach(c -> md.append("---:|"));
        md.append('\n');
        List<String> errors = new ArrayList<>();
        for (PolicyRow row : rows) {
            CellResult r = results.get(row);
            md.append("| ").append(row.label()).append(" | ").append(row.weightRatio()).append(" |");
            for (Column c : Column.TABLE) {
                md.append(' ').append(r == null ? "not run" : r.error() != null ? "error" : c.format(c.value().applyAsDouble(r)))
                        .append(" |");
            }
            md.append('\n');
            if (r != null && r.error() != null) {
                errors.add(row.label() + ": " + r.error());
            }
        }
        for (String stat : List.of("Min", "Max", "Average", "Standard Deviation")) {
            md.append("| *").append(stat).append("* | |");
            for (Column c : Column.TABLE) {
                double[] values = values(c);
                md.append(' ').append(values.length == 0 ? "" : c.format(statistic(stat, values))).append(" |");
            }
            md.append('\n');
        }
        md.append("\nSamples, Throughput (completed samples/s), Failed, Failed %, Latency (mean ms) and p90 (ms) are"
                + " JMeter's, from its JTL. Active Conns, WT1, WT2, PT (ms), Slow-down, Node Sels (per s), LB Failed"
                + " and the selection shares are the dispatcher's, from GET /api/clusters/bench/stats; VCN3 LB failed counts the dispatcher's failures on VCN3. The VCN3 peaks"
                + " are the highest JVM_HEAP_USED%, AMX_CONNS_Q_THRBSY% and AMX_JDBC_ACTC% that VCN3's agent reported"
                + " through the dispatcher, sampled every second (n/a for TCP rows, which poll no agent).\n");
        if (!errors.isEmpty()) {
            md.append("\nCells that could not run:\n\n");
            errors.forEach(e -> md.append("- ").append(e.replace('\n', ' ')).append('\n'));
        }
        return md.toString();
    }

    String csv() {
        StringBuilder csv = new StringBuilder("policy,weight_ratio,status");
        Column.TABLE.forEach(c -> csv.append(',').append(c.header().replace(' ', '_').replace("%", "pct")));
        csv.append('\n');
        for (PolicyRow row : rows) {
            CellResult r = results.get(row);
            csv.append('"').append(row.label()).append("\",").append(row.weightRatio()).append(',')
                    .append(r == null ? "not-run" : r.error() != null ? "error" : "ok");
            for (Column c : Column.TABLE) {
                csv.append(',').append(r == null || r.error() != null ? "" : c.format(c.value().applyAsDouble(r)));
            }
            csv.append('\n');
        }
        for (String stat : List.of("Min", "Max", "Average", "Standard Deviation")) {
            csv.append(stat).append(",,");
            for (Column c : Column.TABLE) {
                double[] values = values(c);
                csv.append(',').append(values.length == 0 ? "" : c.format(statistic(stat, values)));
            }
            csv.append('\n');
        }
        return csv.toString();
    }

    private double[] values(Column c) {
        return rows.stream().map(results::get).filter(r -> r != null && r.error() == null)
                .mapToDouble(c.value()).filter(v -> !Double.isNaN(v)).toArray();
    }

    static double statistic(String name, double[] v) {
        double mean = java.util.Arrays.stream(v).average().orElse(0);
        return switch (name) {
            case "Min" -> java.util.Arrays.stream(v).min().orElse(0);
            case "Max" -> java.util.Arrays.stream(v).max().orElse(0);
            case "Average" -> mean;
            default -> v.length < 2 ? 0 : Math.sqrt(java.util.Arrays.stream(v).map(x -> (x - mean) * (x - mean)).sum()
                    / (v.length - 1));
        };
    }
}
