package io.loadwise.bench;

import io.loadwise.bench.dispatcher.NodeLoad;
import io.loadwise.bench.sweep.CellResult;
import io.loadwise.bench.sweep.SweepRunner;
import io.loadwise.bench.sweep.SweepSettings;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import io.loadwise.cli.ExitCode;
import io.loadwise.cli.HelpOption;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code calibrate}: do the capacity scenarios bite on this machine? For each value of one sweep option
 * ({@code --vary session-kb=256,512}), runs the chosen scenarios under HTTP round robin (VCN3 gets a third
 * of the clients and should run out about halfway) and HTTP static WRR 2:2:1 (the seed's control, which
 * should stay clean), and tabulates failures, VCN3's peak heap/threads/JDBC use and whether VCN3 logged an
 * OutOfMemoryError. The sweep's defaults are the values this table justified (benchmarks/README.md).
 */
@Command(name = "calibrate", customSynopsis = "loadwise bench calibrate [--vary OPTION=v1,v2,...] [--scenarios a,b] [sweep options]",
        description = {"Check (and choose) the node capacities, so that the scenarios bite on this machine.",
            "For each value of one sweep option (none: the sweep's defaults), runs the scenarios under http-round-robin"
                + " and http-static-wrr at the sweep's duration scale. Writes"
                + " benchmarks/results/<date>-calibration[-OPTION]/calibration.md: samples, throughput, JMeter failures,"
                + " VCN3's share and peak heap/threads/JDBC use, and whether VCN3 ran out of heap; and calibration.json:"
                + " per scenario the first setting under which round robin fails >= 1 %% through VCN3 running out while"
                + " the 2:2:1 control fails none, also recorded in " + SweepCommand.DEFAULT_CALIBRATION + " (or"
                + " --calibrated FILE), where 'bench sweep' picks it up."},
        footer = {"Example: loadwise bench calibrate --session-timeout-s 10 --vary session-kb=256,384,448 --scenarios heap",
            "Exit codes: 0 the table is written, 1 a run failed, 2 usage error."})
final class CalibrateCommand implements BenchCommand {

    static final List<String> ROWS = List.of("http-round-robin", "http-static-wrr");

    private static final Logger LOG = LoggerFactory.getLogger(CalibrateCommand.class);
    private static final ObjectMapper SWEEP_JSON = new ObjectMapper();

    @Option(names = "--vary", paramLabel = "OPTION=v1,v2,...", description = "the sweep option to vary and its values"
            + " (default: none, one run with the sweep's defaults); e.g. --vary node-queue=1,2,4")
    String vary;

    @Option(names = "--scenarios", paramLabel = "a,b", description = "the scenarios to calibrate (default ${DEFAULT-VALUE})")
    String scenarios = "heap,http-threads,jdbc,combined";

    /** The sweep's options, passed on to every run; listed in this command's help under their own names. */
    @Mixin(name = "sweep")
    SweepOptions sweep;

    @Option(names = "--calibrated", paramLabel = "FILE", description = "where to record the chosen settings for"
            + " 'bench sweep' (default " + SweepCommand.DEFAULT_CALIBRATION + ")")
    Path calibrationFile;

    @Mixin
    HelpOption help;

    @Spec
    CommandSpec spec;

    CalibrateCommand() {
    }

    @Override
    public int call(PrintStream out) throws IOException, InterruptedException {
        List<String> rest = new ArrayList<>(sweepArguments());
        String option = null;
        List<String> values = List.of("default");
        if (vary != null) {
            int eq = vary.indexOf('=');
            if (eq < 1 || eq == vary.length() - 1) {
                throw new IllegalArgumentException("--vary needs OPTION=v1,v2,..., got '" + vary + "'");
            }
            option = vary.substring(0, eq);
            OptionSpec varied = spec.mixins().get("sweep").findOption("--" + option);
            if (varied == null || varied.arity().max() == 0) {
                throw new IllegalArgumentException("--vary: '" + option + "' is not a sweep option that can be varied");
            }
            values = SweepCommand.list(vary.substring(eq + 1));
        }
        Path root = sweep.locations().root();
        Path folder = root.resolve("benchmarks/results").resolve(LocalDate.now(ZoneOffset.UTC) + "-calibration"
                + (option == null ? "" : "-" + option));
        StringBuilder md = new StringBuilder("# Capacity calibration\n\n").append(Environment.describe())
                .append("\n\nSweep options: `").append(String.join(" ", rest)).append("`")
                .append(option == null ? "" : "; varied: `--" + option + "`")
                .append(".\n\nA scenario bites when VCN3 runs out under round robin (failures, or a peak of 100 %)"
                        + " while the 2:2:1 control stays clean. OOM = VCN3's log holds an OutOfMemoryError.\n\n")
                .append("| value | scenario | policy | samples | throughput | failed (JMeter) | LB failed VCN1/2/3 | VCN3 sel % |"
                        + " VCN3 peak heap % | threads % | JDBC % | VCN3 OOM |\n")
                .append("|---|---|---|---:|---:|---:|---|---:|---:|---:|---:|---|\n");
        if (rest.stream().noneMatch("--repeats"::equals)) {
            // a search, not a measurement: one run per setting unless asked for more
            rest.addAll(List.of("--repeats", "1"));
        }
        if (rest.stream().noneMatch("--repeats-reason"::equals)) {
            rest.addAll(List.of("--repeats-reason", "calibration: a search for settings, not a measurement"));
        }
        // every value's sweep parsed before the first runs: a value the option refuses stops nothing half way
        Map<String, SweepCommand> runs = new LinkedHashMap<>();
        for (String value : values) {
            String label = option == null ? "default" : option + "-" + value;
            List<String> sweepArgs = new ArrayList<>(rest);
            if (option != null) {
                sweepArgs.addAll(List.of("--" + option, value));
            }
            // the calibration must not run under an earlier calibration's settings
            sweepArgs.addAll(List.of("--scenarios", scenarios, "--policies", String.join(",", ROWS), "--out",
                    folder.resolve(label).toString(), "--work-dir", workRoot(root).resolve(label).toString(),
                    "--name", "calibration", "--calibrated", "none"));
            runs.put(label, SweepCommand.parse(sweepArgs));
        }
        Path chosen = calibrationFile != null ? calibrationFile : root.resolve(SweepCommand.DEFAULT_CALIBRATION);
        for (Map.Entry<String, SweepCommand> run : runs.entrySet()) {
            out.println("calibrating " + run.getKey());
            run.getValue().sweep(out);
            // every value calibrated into this folder so far, this run's and earlier runs'
            StringBuilder table = new StringBuilder(md);
            List<Calibration.Trial> trials = new ArrayList<>();
            for (Path results : valueFolders(folder)) {
                String shown = option == null ? "default" : results.getFileName().toString().substring(option.length() + 1);
                SweepSettings settings = SWEEP_JSON.readValue(results.resolve("sweep.json").toFile(), SweepSettings.class);
                for (String scenario : SweepCommand.list(scenarios)) {
                    Map<String, List<CellResult>> byRow = new LinkedHashMap<>();
                    for (String row : ROWS) {
                        byRow.put(row, SweepRunner.readRuns(results, scenario, row, settings.repeats()));
                        for (CellResult r : byRow.get(row)) {
                            table.append(line(shown, scenario, row, r,
                                    workRoot(root).resolve(results.getFileName()).resolve(scenario + "-" + row)));
                        }
                    }
                    if (byRow.values().stream().noneMatch(List::isEmpty)) {
                        trials.add(Calibration.trial(shown, scenario, Calibration.options(settings),
                                byRow.get(ROWS.get(0)), byRow.get(ROWS.get(1)), outOfMemory(workRoot(root)
                                        .resolve(results.getFileName()).resolve(scenario + "-" + ROWS.get(0)))));
                    }
                }
            }
            Calibration calibration = Calibration.of(Instant.now().toString(), trials);
            table.append('\n').append(calibration.markdown()).append("\nThe chosen settings are in `")
                    .append(chosen).append("`, where `bench sweep` reads them (`--calibrated`).\n");
            Files.writeString(folder.resolve("calibration.md"), table, StandardCharsets.UTF_8);
            calibration.write(folder.resolve("calibration.json"));
            mergedWithEarlier(calibration, chosen).write(chosen);
        }
        out.println("calibration: " + folder.resolve("calibration.md"));
        return ExitCode.OK;
    }

    /**
     * The sweep options as this command line gave them, in its order ({@code --session-timeout-s 10}), for
     * every value's sweep and for the table's heading.
     */
    List<String> sweepArguments() {
        return SweepOptions.given(spec, "sweep");
    }

    private static Path workRoot(Path root) {
        return root.resolve("benchmarks/runner/target/calibrate-work");
    }

    /** The per-value result folders, in the order of their values (numeric where they are numbers). */
    private static List<Path> valueFolders(Path folder) throws IOException {
        try (var entries = Files.list(folder)) {
            return entries.filter(Files::isDirectory).sorted(Comparator.comparingDouble(CalibrateCommand::numericSuffix)
                    .thenComparing(Path::toString)).toList();
        }
    }

    private static double numericSuffix(Path dir) {
        String name = dir.getFileName().toString();
        try {
            return Double.parseDouble(name.substring(name.lastIndexOf('-') + 1));
        } catch (NumberFormatException e) {
            return Double.MAX_VALUE;
        }
    }

    /**
     * This calibration's trials, after the trials of {@code file}'s earlier calibration for the scenarios this
     * one did not calibrate: calibrating one scenario keeps what was found for the others.
     */
    static Calibration mergedWithEarlier(Calibration now, Path file) {
        if (!Files.isRegularFile(file)) {
            return now;
        }
        java.util.Set<String> calibrated = new java.util.HashSet<>();
        now.tried().forEach(t -> calibrated.add(t.scenario()));
        List<Calibration.Trial> trials = new ArrayList<>();
        try {
            Calibration.read(file).tried().stream().filter(t -> !calibrated.contains(t.scenario())).forEach(trials::add);
        } catch (IllegalArgumentException e) {
            LOG.warn("the earlier calibration {} is not kept: {}", file, e.getMessage());
        }
        trials.addAll(now.tried());
        return Calibration.of(now.written(), trials);
    }

    /**
     * Where VCN3 logs in a cell's work folder: an embedded Tomcat node's own log, or a GlassFish domain's
     * server.log (the provisioners' layouts).
     */
    static final List<String> VCN3_LOGS = List.of("nodes/VCN3/node.log", "nodes/domains/VCN3/logs/server.log");

    /** Whether VCN3's log in a cell's work folder holds an OutOfMemoryError (the cell's last run). */
    static boolean outOfMemory(Path cellWork) throws IOException {
        for (String name : VCN3_LOGS) {
            Path log = cellWork.resolve(name);
            if (Files.exists(log) && Files.readString(log, StandardCharsets.UTF_8).contains("OutOfMemoryError")) {
                return true;
            }
        }
        return false;
    }

    private static String line(String value, String scenario, String row, CellResult r, Path cellWork)
            throws IOException {
        if (r.error() != null) {
            return String.format(Locale.ROOT, "| %s | %s | %s | error: %s | | | | | | | | |%n", value, scenario, row,
                    r.error().replace('\n', ' ').replace('|', '/'));
        }
        boolean oom = outOfMemory(cellWork);
        NodeLoad peak = r.peakLoad("VCN3");
        String lbFailed = r.failuresOn("VCN1") + " / " + r.failuresOn("VCN2") + " / " + r.failuresOn("VCN3");
        return String.format(Locale.ROOT, "| %s | %s | %s | %d | %.1f | %d | %s | %.1f | %s | %s | %s | %s |%n", value,
                scenario, row, r.samples(), r.throughput(), r.failed(), lbFailed,
                r.selectionShare("VCN3"), percent(peak.heapPercent()),
                percent(peak.threadsPercent()), percent(peak.jdbcPercent()), oom ? "yes" : "no");
    }

    private static String percent(double value) {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.0f", value);
    }
}
