package io.loadwise.bench.report;

import io.loadwise.bench.sweep.CapacityPlan;
import io.loadwise.bench.sweep.CellResult;
import io.loadwise.bench.sweep.PolicyRow;
import io.loadwise.bench.sweep.ResultsWriter;
import io.loadwise.bench.sweep.SweepRunner;
import io.loadwise.bench.sweep.SweepSettings;
import io.loadwise.capacity.chart.PairedBarChart;
import io.loadwise.node.CapacityScenario;
import io.loadwise.node.NodeCapacity;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes a sweep's results folder from its cell files: {@code <scenario>.md/.csv} per scenario (seed
 * tables 10-14), {@code ranking.md/.csv} (Table 15), {@code plots/<scenario>.png} (throughput and
 * failures per policy) and {@code plots/traces/*.png} (per-node selections), and {@code README.md}.
 */
public final class SweepReport implements ResultsWriter {

    private final SweepSettings settings;
    private final Path out;
    private final String environment;

    public SweepReport(SweepSettings settings, Path out, String environment) {
        this.settings = settings;
        this.out = out;
        this.environment = environment;
    }

    @Override
    public void write() throws IOException {
        String settingsLine = settingsLine();
        List<PolicyRow> rows = settings.rowList();
        List<Map<PolicyRow, CellResult>> all = new ArrayList<>();
        StringBuilder index = new StringBuilder("# Policy sweep: ").append(out.getFileName()).append("\n\n")
                .append(settingsLine).append("\n\n").append(environment).append("\n\n");
        int cells = 0;
        int agentLive = 0;
        for (CapacityScenario scenario : settings.scenarioList()) {
            String key = CapacityPlan.key(scenario);
            Map<PolicyRow, CellResult> results = new LinkedHashMap<>();
            for (PolicyRow row : rows) {
                CellResult r = SweepRunner.readCell(out, key, row.key());
                if (r != null) {
                    results.put(row, r);
                    cells++;
                    agentLive += r.agentLive() ? 1 : 0;
                }
                Path trace = out.resolve("traces").resolve(key + "-" + row.key() + ".csv");
                Path tracePng = out.resolve("plots").resolve("traces").resolve(key + "-" + row.key() + ".png");
                if (Files.isRegularFile(trace) && (!Files.exists(tracePng)
                        || Files.getLastModifiedTime(tracePng).compareTo(Files.getLastModifiedTime(trace)) < 0)) {
                    TracePlot.write(trace, tracePng, CapacityPlan.title(scenario) + ": " + row.label());
                }
            }
            all.add(results);
            String capacityLine = "Capacities: " + settings.capacity().describe(scenario) + ". " + settingsLine;
            ScenarioTable table = new ScenarioTable(CapacityPlan.title(scenario), capacityLine, rows, results);
            Files.writeString(out.resolve(key + ".md"), table.markdown()
                    + "\n![throughput and failures](plots/" + key + ".png)\n", StandardCharsets.UTF_8);
            Files.writeString(out.resolve(key + ".csv"), table.csv(), StandardCharsets.UTF_8);
            PairedBarChart bars = new PairedBarChart(CapacityPlan.title(scenario),
                    new PairedBarChart.Panel("Throughput (completed samples/s, JMeter)", "%.1f"),
                    new PairedBarChart.Panel("Failed samples (JMeter)", "%.0f"));
            for (PolicyRow row : rows) {
                CellResult r = results.get(row);
                if (r != null && r.error() == null) {
                    bars.add(row.label() + (row == PolicyRow.HTTP_STATIC_WRR ? " (control)" : ""), r.throughput(),
                            r.failed());
                }
            }
            if (!bars.isEmpty()) {
                bars.writePng(out.resolve("plots").resolve(key + ".png"));
            }
            index.append("- [").append(CapacityPlan.title(scenario)).append("](").append(key).append(".md): ")
                    .append(results.size()).append('/').append(rows.size()).append(" cells\n");
        }
        Ranking ranking = new Ranking(rows, all);
        Files.writeString(out.resolve("ranking.md"), ranking.markdown(settingsLine), StandardCharsets.UTF_8);
        Files.writeString(out.resolve("ranking.csv"), ranking.csv(), StandardCharsets.UTF_8);
        index.append("- [Overall ranking (Table 15)](ranking.md)\n\n")
                .append(String.format(Locale.ROOT, "%d of %d cells have results. Node agent data reached the dispatcher"
                        + " (a fresh agent sample for every node at the end of the run) in %d of them.%n", cells,
                        settings.cells(), agentLive))
                .append("\nFiles: `cells/<scenario>/<policy>.json` (every figure of a cell), `traces/*.csv` (per-second"
                        + " dispatcher figures and per-node selections), `plots/`.\n");
        Files.writeString(out.resolve("README.md"), index, StandardCharsets.UTF_8);
    }

    private String settingsLine() {
        NodeCapacity full = settings.fullNode();
        return String.format(Locale.ROOT, "Settings: %s; full node %d MB heap, %d worker threads, request queue %d,"
                        + " %d JDBC connections (the seed's: 512 MB, 12, 12, 10); trade sessions hold %d KB of state and expire"
                        + " after %s idle;"
                        + " provisioner %s; plan %s; node agent %s; HTTP rows balance %s; JMeter reconnects every %d ms.",
                settings.durations().describe(), full.heapMb(), full.httpThreads(), full.acceptQueue(), full.jdbcPool(),
                settings.sessionStateKb(), settings.sessionTimeoutSeconds() == 0 ? "30 min"
                        : settings.sessionTimeoutSeconds() + " s", settings.provisioner(), settings.plan(), settings.agent() ? "installed" : "not installed",
                settings.httpBalance(), settings.connectionTtlMs());
    }
}
