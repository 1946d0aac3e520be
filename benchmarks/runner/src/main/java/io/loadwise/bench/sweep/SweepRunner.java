package io.loadwise.bench.sweep;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.loadwise.node.CapacityScenario;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Runs every (scenario, policy row) cell of a sweep into a results folder, one JSON file per finished
 * cell, skipping cells that already have a successful result (resume), printing progress with elapsed
 * time and ETA, and rewriting the tables and plots after every cell.
 */
public final class SweepRunner {

    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final SweepSettings settings;
    private final CellRunner cells;
    private final Path out;
    private final PrintStream progress;
    private final ResultsWriter report;

    /** @param report rewrites the tables and plots in {@code out} after every cell and at the end */
    public SweepRunner(SweepSettings settings, CellRunner cells, Path out, PrintStream progress, ResultsWriter report) {
        this.settings = settings;
        this.cells = cells;
        this.out = out;
        this.progress = progress;
        this.report = report;
    }

    /** Path of a cell's result. */
    public static Path cellFile(Path out, String scenario, String row) {
        return out.resolve("cells").resolve(scenario).resolve(row + ".json");
    }

    /** Reads a finished cell, or null if it has not run or failed. */
    public static CellResult readCell(Path out, String scenario, String row) throws IOException {
        Path file = cellFile(out, scenario, row);
        return Files.isRegularFile(file) ? JSON.readValue(file.toFile(), CellResult.class) : null;
    }

    /** Runs the missing cells; returns the number of cells that ended with an error. */
    public int run() throws IOException, InterruptedException {
        Files.createDirectories(out);
        JSON.writeValue(out.resolve("sweep.json").toFile(), settings);
        int total = settings.cells();
        int missing = 0;
        for (CapacityScenario scenario : settings.scenarioList()) {
            for (PolicyRow row : settings.rowList()) {
                CellResult previous = readCell(out, CapacityPlan.key(scenario), row.key());
                missing += previous == null || previous.error() != null ? 1 : 0;
            }
        }
        int done = total - missing;
        int ranHere = 0;
        int errors = 0;
        long started = System.nanoTime();
        progress.printf(Locale.ROOT, "sweep: %d cells (%d to run) into %s%n  %s%n", total, missing, out,
                settings.durations().describe());
        for (CapacityScenario scenario : settings.scenarioList()) {
            for (PolicyRow row : settings.rowList()) {
                String key = CapacityPlan.key(scenario);
                CellResult previous = readCell(out, key, row.key());
                if (previous != null && previous.error() == null) {
                    continue;
                }
                progress.printf(Locale.ROOT, "[%d/%d] %s x %s ...%n", done + 1, total, key, row.key());
                CellResult result = cells.run(scenario, row, out.resolve("traces").resolve(key + "-" + row.key() + ".csv"));
                Path file = cellFile(out, key, row.key());
                Files.createDirectories(file.getParent());
                JSON.writeValue(file.toFile(), result);
                done++;
                ranHere++;
                if (result.error() != null) {
                    errors++;
                }
                double elapsed = (System.nanoTime() - started) / 1e9;
                double eta = elapsed / ranHere * (missing - ranHere);
                progress.printf(Locale.ROOT, "[%d/%d] %s x %s: %s; elapsed %s, ETA %s%n", done, total, key, row.key(),
                        result.error() != null ? "ERROR " + result.error()
                                : String.format(Locale.ROOT, "%d samples, %d failed (JMeter), %.1f/s, VCN sels %s, agent %s",
                                result.samples(), result.failed(), result.throughput(), result.selections(),
                                result.agentLive() ? "live" : "not live"),
                        clock(elapsed), clock(eta));
                report.write();
            }
        }
        report.write();
        progress.printf(Locale.ROOT, "sweep done: %d cells (%d run now, %d with errors) in %s; tables in %s%n", done,
                ranHere, errors, clock((System.nanoTime() - started) / 1e9), out);
        return errors;
    }

    static String clock(double seconds) {
        long s = Math.round(seconds);
        return String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
    }
}
