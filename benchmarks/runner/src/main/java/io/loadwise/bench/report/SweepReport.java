package io.loadwise.bench.report;

import io.loadwise.bench.sweep.CellResult;
import io.loadwise.bench.sweep.PolicyRow;
import io.loadwise.bench.sweep.ResultsWriter;
import io.loadwise.bench.sweep.SweepRunner;
import io.loadwise.bench.sweep.SweepSettings;
import io.loadwise.capacity.chart.PairedBarChart;
import io.loadwise.node.NodeCapacity;
import io.loadwise.scenario.CapacityScenario;
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
 * Writes a sweep's results folder from its run files: {@code <scenario>.md/.csv} per scenario (seed
 * tables 10-14, means with 95 % intervals over the repeats), {@code ranking.md/.csv} (Table 15, with
 * ties), {@code runs.csv} (the run order and the load averages), {@code plots/<scenario>.png} (throughput and
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
        Map<String, String> titles = new LinkedHashMap<>();
        Map<String, Map<PolicyRow, List<CellResult>>> all = new LinkedHashMap<>();
        Map<String, CellResult> byRun = new LinkedHashMap<>();
        int runs = 0;
        int agentLive = 0;
        for (CapacityScenario scenario : settings.scenarioList()) {
            String key = scenario.key();
            titles.put(key, scenario.title());
            Map<PolicyRow, List<CellResult>> results = new LinkedHashMap<>();
            for (PolicyRow row : rows) {
                List<CellResult> cellRuns = SweepRunner.readRuns(out, key, row.key(), settings.repeats());
                results.put(row, cellRuns);
                for (CellResult r : cellRuns) {
                    byRun.put(RunsCsv.key(key, row.key(), r.repeat()), r);
                    runs++;
                    agentLive += r.agentLive() ? 1 : 0;
                }
                for (int repeat = 1; repeat <= settings.repeats(); repeat++) {
                    plotTrace(SweepRunner.traceFile(out, key, row.key(), repeat), out.resolve("plots").resolve("traces")
                            .resolve(key + "-" + row.key() + "-run" + repeat + ".png"),
                            scenario.title() + ": " + row.label() + ", run " + repeat);
                }
            }
            all.put(key, results);
        }
        Ranking ranking = new Ranking(rows, titles, all);
        StringBuilder index = new StringBuilder("# Policy sweep: ").append(out.getFileName()).append("\n\n")
                .append(settingsLine).append("\n\n").append(environment).append("\n\n");
        for (CapacityScenario scenario : settings.scenarioList()) {
            String key = scenario.key();
            Map<PolicyRow, List<CellResult>> results = all.get(key);
            String capacityLine = "Capacities: " + settings.capacity().describe(scenario) + ". " + settingsLine;
            ScenarioTable table = new ScenarioTable(scenario.title(), capacityLine, rows, results,
                    ranking.places(key));
            Files.writeString(out.resolve(key + ".md"), table.markdown()
                    + "\n![throughput and failures](plots/" + key + ".png)\n", StandardCharsets.UTF_8);
            Files.writeString(out.resolve(key + ".csv"), table.csv(), StandardCharsets.UTF_8);
            PairedBarChart bars = new PairedBarChart(scenario.title(),
                    new PairedBarChart.Panel("Throughput (completed samples/s, JMeter; mean of the runs)", "%.1f"),
                    new PairedBarChart.Panel("Failed samples (JMeter; mean of the runs)", "%.1f"));
            long complete = 0;
            for (PolicyRow row : rows) {
                List<CellResult> ok = ScenarioTable.succeeded(results.get(row));
                complete += ok.size() == settings.repeats() ? 1 : 0;
                if (!ok.isEmpty()) {
                    bars.add(row.label() + (row.equals(PolicyRow.HTTP_STATIC_WRR) ? " (control)" : ""),
                            ok.stream().mapToDouble(CellResult::throughput).average().orElseThrow(),
                            ok.stream().mapToLong(CellResult::failed).average().orElseThrow());
                }
            }
            if (!bars.isEmpty()) {
                bars.writePng(out.resolve("plots").resolve(key + ".png"));
            }
            index.append("- [").append(scenario.title()).append("](").append(key).append(".md): ")
                    .append(complete).append('/').append(rows.size()).append(" policies with all ")
                    .append(settings.repeats()).append(" runs\n");
        }
        Files.writeString(out.resolve("ranking.md"), ranking.markdown(settingsLine), StandardCharsets.UTF_8);
        Files.writeString(out.resolve("ranking.csv"), ranking.csv(), StandardCharsets.UTF_8);
        Files.writeString(out.resolve("runs.csv"), RunsCsv.write(settings.order(), byRun), StandardCharsets.UTF_8);
        index.append("- [Policy ranking (Table 15, with ties)](ranking.md)\n- [Every run, in order, with the load"
                        + " average](runs.csv)\n\n")
                .append(String.format(Locale.ROOT, "%d of %d runs (%d cells x %d repeats) have results. Node agent data"
                        + " reached the dispatcher (a fresh agent sample for every node at the end of the run) in %d of"
                        + " them.%n", runs, settings.cells() * settings.repeats(), settings.cells(), settings.repeats(),
                        agentLive))
                .append("\n").append(method())
                .append("\nFiles: `cells/<scenario>/<policy>/run-<n>.json` (every figure of a run), `runs.csv` (the"
                        + " run order, each run's main figures and the load averages around it), `traces/*.csv`"
                        + " (per-second dispatcher figures and per-node selections), `plots/`.\n");
        Files.writeString(out.resolve("README.md"), index, StandardCharsets.UTF_8);
    }

    /** The README's method section: repeats (and why fewer than recommended), order, intervals, ties. */
    String method() {
        StringBuilder md = new StringBuilder("## Method\n\n");
        md.append(String.format(Locale.ROOT, "Every cell (scenario x policy) runs %d times", settings.repeats()));
        if (settings.repeats() < SweepSettings.RECOMMENDED_REPEATS) {
            md.append(String.format(Locale.ROOT, " - fewer than the method's %d, because: %s",
                    SweepSettings.RECOMMENDED_REPEATS, settings.repeatsReason()));
        }
        md.append(String.format(Locale.ROOT, ". The runs are in a randomised, interleaved order (seed %d): %d rounds,"
                + " each of which runs every cell once in a random order, so drift of the shared machine falls on every"
                + " policy alike; `runs.csv` lists the order and the 1/5/15-minute load averages (/proc/loadavg)"
                + " before and after each run.%n%n", settings.seed(), settings.repeats()));
        md.append("Tables give the mean over a cell's successful runs with its 95 % confidence interval,"
                + " mean +/- t(0.975, n-1) s / sqrt(n) (Student's t, because n is small). Policies are ranked per"
                + " scenario by fewest failures (failed %), then highest throughput; a difference that Welch's"
                + " two-sided t-test at 5 % cannot tell from the noise is a tie, and tied policies share a rank. A"
                + " policy joins a tie group when it does not differ from the group's best, so a chain of small"
                + " differences cannot tie the best with the worst. Cells with a single run have no interval and"
                + " can only tie.\n");
        if (settings.calibration() != null) {
            md.append("\nSettings from the calibration ").append(settings.calibration()).append(".\n");
        }
        return md.toString();
    }

    private static void plotTrace(Path trace, Path png, String title) throws IOException {
        if (Files.isRegularFile(trace) && (!Files.exists(png)
                || Files.getLastModifiedTime(png).compareTo(Files.getLastModifiedTime(trace)) < 0)) {
            TracePlot.write(trace, png, title);
        }
    }

    private String settingsLine() {
        NodeCapacity full = settings.fullNode();
        return String.format(Locale.ROOT, "Settings: %s; full node %d MB heap, %d worker threads, request queue %d,"
                        + " %d JDBC connections (the seed's: 512 MB, 12, 12, 10); VCN3's queue where its threads are"
                        + " halved: %s; %s; trade sessions hold %d KB of state and expire"
                        + " after %s idle;"
                        + " provisioner %s; plan %s; node agent %s%s; HTTP rows balance %s; JMeter reconnects every %d ms.",
                settings.durations().describe(), full.heapMb(), full.httpThreads(), full.acceptQueue(), full.jdbcPool(),
                settings.vcn3Queue().equals("half") ? "halved too (--vcn3-queue half, a departure from seed Table 9)"
                        : "the full node's (--vcn3-queue seed, as seed Table 9)",
                settings.jdbcHoldMs() == 0 ? "requests hold no JDBC connection beyond their work, the pool waits at most "
                        + settings.jdbcMaxWaitMs() + " ms" : "every scenario request holds a JDBC connection "
                        + settings.jdbcHoldMs() + " ms (--jdbc-hold-ms), the pool waits at most " + settings.jdbcMaxWaitMs()
                        + " ms, then the node answers 503",
                settings.sessionStateKb(), settings.sessionTimeoutSeconds() == 0 ? "30 min"
                        : settings.sessionTimeoutSeconds() + " s", settings.provisioner(), settings.plan(), settings.agent() ? "installed" : "not installed",
                (settings.readingNoise() > 0 ? String.format(Locale.ROOT, ", every reading made noisy within ±%.0f %% (--agent-noise)",
                        100 * settings.readingNoise()) : "")
                        + (settings.gcPressureNode() == null ? "" : ", " + settings.gcPressureNode() + " collecting garbage over and"
                        + " over (--gc-pressure " + settings.gcPressure() + ")"),
                settings.httpBalance(), settings.connectionTtlMs());
    }
}
