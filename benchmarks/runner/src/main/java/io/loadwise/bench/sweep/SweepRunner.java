package io.loadwise.bench.sweep;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.loadwise.scenario.CapacityScenario;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Runs every (scenario, policy row) cell of a sweep {@code repeats} times, in the randomised interleaved
 * order of {@link RunOrder}, into a results folder: one JSON file per finished run with the machine's load
 * averages before and after it, skipping runs that already have a successful result (resume), printing
 * progress with elapsed time and ETA, and rewriting the tables and plots after every run.
 */
public final class SweepRunner {

    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final SweepSettings settings;
    private final CellRunner cells;
    private final Path out;
    private final PrintStream progress;
    private final ResultsWriter report;

    /** @param report rewrites the tables and plots in {@code out} after every run and at the end */
    public SweepRunner(SweepSettings settings, CellRunner cells, Path out, PrintStream progress, ResultsWriter report) {
        this.settings = settings;
        this.cells = cells;
        this.out = out;
        this.progress = progress;
        this.report = report;
    }

    /** Path of one run's result. */
    public static Path runFile(Path out, String scenario, String row, int repeat) {
        return out.resolve("cells").resolve(scenario).resolve(row).resolve("run-" + repeat + ".json");
    }

    /** Path of one run's per-second dispatcher trace. */
    public static Path traceFile(Path out, String scenario, String row, int repeat) {
        return out.resolve("traces").resolve(scenario + "-" + row + "-run" + repeat + ".csv");
    }

    /** Reads a run, or null if it has not run. */
    public static CellResult readRun(Path out, String scenario, String row, int repeat) throws IOException {
        Path file = runFile(out, scenario, row, repeat);
        return Files.isRegularFile(file) ? JSON.readValue(file.toFile(), CellResult.class) : null;
    }

    /** Every recorded run of a cell (with or without an error), by repeat; empty when none ran. */
    public static List<CellResult> readRuns(Path out, String scenario, String row, int repeats) throws IOException {
        List<CellResult> runs = new ArrayList<>();
        for (int repeat = 1; repeat <= repeats; repeat++) {
            CellResult r = readRun(out, scenario, row, repeat);
            if (r != null) {
                runs.add(r);
            }
        }
        return runs;
    }

    /**
     * A folder resumes only the sweep it holds: its recorded runs were made under its {@code sweep.json}, and
     * counting them as runs under other settings would report figures those settings never produced.
     *
     * @throws IllegalArgumentException when {@code out} holds a sweep with other settings
     */
    public static void requireSameSettings(Path out, SweepSettings settings) throws IOException {
        Path manifest = out.resolve("sweep.json");
        if (!Files.isRegularFile(manifest)) {
            return;
        }
        SweepSettings earlier = JSON.readValue(manifest.toFile(), SweepSettings.class);
        if (!earlier.equals(settings)) {
            throw new IllegalArgumentException(out + " holds a sweep with other settings (" + manifest
                    + "): run it again with those settings to resume it, or give another results folder");
        }
    }

    /** Writes a run's result where {@link #readRun} finds it. */
    public static void writeRun(Path out, CellResult result) throws IOException {
        Path file = runFile(out, result.scenario(), result.row(), result.repeat());
        Files.createDirectories(file.getParent());
        JSON.writeValue(file.toFile(), result);
    }

    /** Runs the missing runs; returns the number of runs that ended with an error. */
    public int run() throws IOException, InterruptedException {
        requireSameSettings(out, settings);
        Files.createDirectories(out);
        JSON.writeValue(out.resolve("sweep.json").toFile(), settings);
        List<RunOrder.Run> order = settings.order();
        int total = order.size();
        int missing = 0;
        for (RunOrder.Run run : order) {
            CellResult previous = readRun(out, run.scenario(), run.row(), run.repeat());
            missing += previous == null || previous.error() != null ? 1 : 0;
        }
        int done = total - missing;
        int ranHere = 0;
        int errors = 0;
        long started = System.nanoTime();
        progress.printf(Locale.ROOT, "sweep: %d cells x %d repeats = %d runs (%d to run, seed %d) into %s%n  %s%n",
                settings.cells(), settings.repeats(), total, missing, settings.seed(), out, settings.durations().describe());
        for (RunOrder.Run run : order) {
            CellResult previous = readRun(out, run.scenario(), run.row(), run.repeat());
            if (previous != null && previous.error() == null) {
                continue;
            }
            String cell = run.scenario() + " x " + run.row() + " #" + run.repeat();
            progress.printf(Locale.ROOT, "[%d/%d] %s ...%n", done + 1, total, cell);
            CapacityScenario scenario = CapacityScenario.byKey(run.scenario());
            LoadAverage before = LoadAverage.read(LoadAverage.PROC);
            CellResult result = cells.run(scenario, PolicyRow.parse(run.row()),
                    traceFile(out, run.scenario(), run.row(), run.repeat()));
            result = result.withRun(run.repeat(), run.position(), before, LoadAverage.read(LoadAverage.PROC));
            writeRun(out, result);
            done++;
            ranHere++;
            if (result.error() != null) {
                errors++;
            }
            double elapsed = (System.nanoTime() - started) / 1e9;
            double eta = elapsed / ranHere * (missing - ranHere);
            progress.printf(Locale.ROOT, "[%d/%d] %s: %s; load %s -> %s; elapsed %s, ETA %s%n", done, total, cell,
                    result.error() != null ? "ERROR " + result.error()
                            : String.format(Locale.ROOT, "%d samples, %d failed (JMeter), %.1f/s, VCN sels %s, agent %s",
                            result.samples(), result.failed(), result.throughput(), result.selections(),
                            result.agentLive() ? "live" : "not live"),
                    before.csv(), result.loadAfter().csv(), clock(elapsed), clock(eta));
            report.write();
        }
        report.write();
        progress.printf(Locale.ROOT, "sweep done: %d runs (%d run now, %d with errors) in %s; tables in %s%n", done,
                ranHere, errors, clock((System.nanoTime() - started) / 1e9), out);
        return errors;
    }

    static String clock(double seconds) {
        long s = Math.round(seconds);
        return String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
    }
}
