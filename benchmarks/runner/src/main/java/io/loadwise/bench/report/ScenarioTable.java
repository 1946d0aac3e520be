package io.loadwise.bench.report;

import io.loadwise.bench.stats.Interval;
import io.loadwise.bench.stats.TiedRanking;
import io.loadwise.bench.sweep.CellResult;
import io.loadwise.bench.sweep.PolicyRow;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * One scenario's table in the layout of seed tables 10-14, over repeated runs: a row per policy with its
 * rank (ties share one), the runs that succeeded, and every column's mean; throughput, failures and
 * response times also with their 95 % interval. Then Min, Max, Average and Standard Deviation (sample)
 * of the policies' means. Markdown and CSV.
 */
final class ScenarioTable {

    private final String title;
    private final String settingsLine;
    private final List<PolicyRow> rows;
    private final Map<PolicyRow, List<CellResult>> runs;
    private final Map<PolicyRow, String> ranks;

    /**
     * @param runs  every recorded run per row, errors included
     * @param ranks the row's place in this scenario's ranking ("1", "2 (tie)", "Control")
     */
    ScenarioTable(String title, String settingsLine, List<PolicyRow> rows, Map<PolicyRow, List<CellResult>> runs,
            Map<PolicyRow, String> ranks) {
        this.title = title;
        this.settingsLine = settingsLine;
        this.rows = rows;
        this.runs = runs;
        this.ranks = ranks;
    }

    /** The runs of {@code row} without an error. */
    static List<CellResult> succeeded(List<CellResult> runs) {
        return runs == null ? List.of() : runs.stream().filter(r -> r.error() == null).toList();
    }

    String markdown() {
        StringBuilder md = new StringBuilder("# ").append(title).append("\n\n").append(settingsLine).append("\n\n");
        md.append("| Rank | Task Assignment Policy | Weight Ratio | Runs |");
        Column.TABLE.forEach(c -> md.append(' ').append(c.header()).append(c.interval() ? " [95 % CI]" : "").append(" |"));
        md.append("\n|---|---|---|---:|");
        Column.TABLE.forEach(c -> md.append("---:|"));
        md.append('\n');
        List<String> errors = new ArrayList<>();
        for (PolicyRow row : rows) {
            List<CellResult> all = runs.getOrDefault(row, List.of());
            List<CellResult> ok = succeeded(all);
            md.append("| ").append(ranks.getOrDefault(row, "")).append(" | ").append(row.label()).append(" | ")
                    .append(row.weightRatio()).append(" | ").append(ok.size()).append(" |");
            for (Column c : Column.TABLE) {
                md.append(' ').append(all.isEmpty() ? "not run" : ok.isEmpty() ? "error" : cell(c, ok)).append(" |");
            }
            md.append('\n');
            for (CellResult r : all) {
                if (r.error() != null) {
                    errors.add(row.label() + " run " + r.repeat() + ": " + r.error());
                }
            }
        }
        for (String stat : List.of("Min", "Max", "Average", "Standard Deviation")) {
            md.append("| | *").append(stat).append("* | | |");
            for (Column c : Column.TABLE) {
                double[] values = means(c);
                md.append(' ').append(values.length == 0 ? "" : c.format(statistic(stat, values))).append(" |");
            }
            md.append('\n');
        }
        md.append("\nEach figure is the mean over the runs that succeeded; a figure in brackets is its 95 % confidence"
                + " interval (Student's t with runs - 1 degrees of freedom; none for a single run). Ranks: fewest"
                + " failures, then highest throughput; a difference that Welch's t-test at 5 % cannot tell from the"
                + " noise is a tie, and tied policies share a rank (see README.md). The summary rows are over the"
                + " policies' means.\n\n"
                + "Samples, Throughput (completed samples/s), Failed, Failed %, Latency (mean ms) and p90 (ms) are"
                + " JMeter's, from its JTL. Active Conns, WT1, WT2, PT (ms), Slow-down, Node Sels (per s), LB Failed"
                + " and the selection shares are the dispatcher's, from GET /api/clusters/bench/stats; VCN3 LB failed"
                + " counts the dispatcher's failures on VCN3. The VCN3 peaks are the highest JVM_HEAP_USED%,"
                + " AMX_CONNS_Q_THRBSY% and AMX_JDBC_ACTC% that VCN3's agent reported through the dispatcher, sampled"
                + " every second (n/a for TCP rows, which poll no agent).\n");
        if (!errors.isEmpty()) {
            md.append("\nRuns that could not run:\n\n");
            errors.forEach(e -> md.append("- ").append(e.replace('\n', ' ')).append('\n'));
        }
        return md.toString();
    }

    private static String cell(Column c, List<CellResult> ok) {
        Interval i = c.over(ok);
        return c.interval() ? i.format(c.decimals()) : c.format(i.mean());
    }

    String csv() {
        StringBuilder csv = new StringBuilder("policy,weight_ratio,status,rank,runs");
        for (Column c : Column.TABLE) {
            String name = c.header().replace(' ', '_').replace("%", "pct");
            csv.append(',').append(name);
            if (c.interval()) {
                csv.append(',').append(name).append("_ci_low,").append(name).append("_ci_high");
            }
        }
        csv.append('\n');
        for (PolicyRow row : rows) {
            List<CellResult> all = runs.getOrDefault(row, List.of());
            List<CellResult> ok = succeeded(all);
            csv.append('"').append(row.label()).append("\",").append(row.weightRatio()).append(',')
                    .append(all.isEmpty() ? "not-run" : ok.isEmpty() ? "error" : "ok").append(',')
                    .append(ranks.getOrDefault(row, "")).append(',').append(ok.size());
            for (Column c : Column.TABLE) {
                Interval i = c.over(ok);
                csv.append(',').append(ok.isEmpty() ? "" : c.format(i.mean()));
                if (c.interval()) {
                    csv.append(',').append(ok.size() < 2 ? "" : c.format(i.low()))
                            .append(',').append(ok.size() < 2 ? "" : c.format(i.high()));
                }
            }
            csv.append('\n');
        }
        for (String stat : List.of("Min", "Max", "Average", "Standard Deviation")) {
            csv.append(stat).append(",,,,");
            for (Column c : Column.TABLE) {
                double[] values = means(c);
                csv.append(',').append(values.length == 0 ? "" : c.format(statistic(stat, values)));
                if (c.interval()) {
                    csv.append(",,");
                }
            }
            csv.append('\n');
        }
        return csv.toString();
    }

    /** Every row's mean of {@code c}, over the rows that have a successful run. */
    private double[] means(Column c) {
        return rows.stream().map(r -> succeeded(runs.get(r))).filter(ok -> !ok.isEmpty())
                .mapToDouble(ok -> c.over(ok).mean()).filter(v -> !Double.isNaN(v)).toArray();
    }

    /** The row's failure rate and throughput over its successful runs, for {@link TiedRanking}. */
    static TiedRanking.Entry<PolicyRow> rankingEntry(PolicyRow row, List<CellResult> ok) {
        return new TiedRanking.Entry<>(row, Interval.of(ok.stream().mapToDouble(CellResult::failedPercent).toArray()),
                Interval.of(ok.stream().mapToDouble(CellResult::throughput).toArray()));
    }

    static double statistic(String name, double[] v) {
        double mean = Arrays.stream(v).average().orElse(0);
        return switch (name) {
            case "Min" -> Arrays.stream(v).min().orElse(0);
            case "Max" -> Arrays.stream(v).max().orElse(0);
            case "Average" -> mean;
            default -> v.length < 2 ? 0 : Math.sqrt(Arrays.stream(v).map(x -> (x - mean) * (x - mean)).sum()
                    / (v.length - 1));
        };
    }
}
