package io.loadwise.bench.report;

import io.loadwise.bench.sweep.CellResult;
import io.loadwise.bench.sweep.PolicyRow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The overall ranking of seed Table 15: each policy's samples, throughput and failures averaged over the
 * scenarios it ran in; HTTP static WRR 2:2:1 is the control; the others are ranked by fewest failures,
 * then highest throughput.
 */
final class Ranking {

    record Entry(PolicyRow row, int scenarios, double samples, double throughput, double failed) {
    }

    private final List<Entry> entries;

    Ranking(List<PolicyRow> rows, List<Map<PolicyRow, CellResult>> byScenario) {
        List<Entry> list = new ArrayList<>();
        for (PolicyRow row : rows) {
            List<CellResult> cells = byScenario.stream().map(m -> m.get(row))
                    .filter(r -> r != null && r.error() == null).toList();
            if (!cells.isEmpty()) {
                list.add(new Entry(row, cells.size(), cells.stream().mapToLong(CellResult::samples).average().orElse(0),
                        cells.stream().mapToDouble(CellResult::throughput).average().orElse(0),
                        cells.stream().mapToLong(CellResult::failed).average().orElse(0)));
            }
        }
        list.sort(Comparator.comparing((Entry e) -> e.row() != PolicyRow.HTTP_STATIC_WRR)
                .thenComparingDouble(Entry::failed).thenComparing(Comparator.comparingDouble(Entry::throughput).reversed()));
        this.entries = List.copyOf(list);
    }

    List<Entry> entries() {
        return entries;
    }

    String markdown(String settingsLine) {
        StringBuilder md = new StringBuilder("# Overall policy ranking (seed Table 15)\n\n").append(settingsLine)
                .append("\n\nAverages over the scenarios each policy ran in; JMeter's samples, completed samples/s and"
                        + " failed samples. Ranked by fewest failures, then highest throughput; the HTTP static WRR"
                        + " 2:2:1 policy is the control, as in the seed.\n\n")
                .append("| Overall Rank | Task Assignment Policy | Weight Ratio | Scenarios | Samples | Throughput | Failed |\n")
                .append("|---|---|---|---:|---:|---:|---:|\n");
        int rank = 0;
        for (Entry e : entries) {
            String place = e.row() == PolicyRow.HTTP_STATIC_WRR ? "Control" : Integer.toString(++rank);
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %d | %.0f | %.2f | %.2f |%n", place, e.row().label(),
                    e.row().weightRatio(), e.scenarios(), e.samples(), e.throughput(), e.failed()));
        }
        for (String stat : List.of("Min", "Max", "Average", "Standard Deviation")) {
            md.append(String.format(Locale.ROOT, "| | *%s* | | | %.0f | %.2f | %.2f |%n", stat,
                    ScenarioTable.statistic(stat, entries.stream().mapToDouble(Entry::samples).toArray()),
                    ScenarioTable.statistic(stat, entries.stream().mapToDouble(Entry::throughput).toArray()),
                    ScenarioTable.statistic(stat, entries.stream().mapToDouble(Entry::failed).toArray())));
        }
        return md.toString();
    }

    String csv() {
        StringBuilder csv = new StringBuilder("rank,policy,weight_ratio,scenarios,samples,throughput,failed\n");
        int rank = 0;
        for (Entry e : entries) {
            String place = e.row() == PolicyRow.HTTP_STATIC_WRR ? "Control" : Integer.toString(++rank);
            csv.append(String.format(Locale.ROOT, "%s,\"%s\",%s,%d,%.0f,%.2f,%.2f%n", place, e.row().label(),
                    e.row().weightRatio(), e.scenarios(), e.samples(), e.throughput(), e.failed()));
        }
        return csv.toString();
    }
}
