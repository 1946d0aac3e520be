package io.loadwise.bench;

import io.loadwise.bench.dispatcher.NodeLoad;
import io.loadwise.bench.sweep.CellResult;
import io.loadwise.bench.sweep.SweepRunner;
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
import java.util.Locale;

/**
 * {@code calibrate}: do the capacity scenarios bite on this machine? For each value of one sweep option
 * ({@code --vary session-kb=256,512}), runs the chosen scenarios under HTTP round robin (VCN3 gets a third
 * of the clients and should run out about halfway) and HTTP static WRR 2:2:1 (the seed's control, which
 * should stay clean), and tabulates failures, VCN3's peak heap/threads/JDBC use and whether VCN3 logged an
 * OutOfMemoryError. The sweep's defaults are the values this table justified (benchmarks/README.md).
 */
final class CalibrateCommand {

    static final String USAGE = """
            Usage: loadwise bench calibrate [--vary OPTION=v1,v2,...] [--scenarios a,b] [sweep options]
              For each value of one sweep option (e.g. --vary session-kb=256,512,768 or --vary node-queue=1,2,4;
              none: the sweep's defaults), runs the scenarios (default heap,http-threads,jdbc,combined) under
              http-round-robin and http-static-wrr at the sweep's duration scale. Writes
              benchmarks/results/<date>-calibration[-OPTION]/calibration.md: samples, throughput, JMeter failures,
              VCN3's share and peak heap/threads/JDBC use, and whether VCN3 ran out of heap.
            """;

    static final List<String> ROWS = List.of("http-round-robin", "http-static-wrr");

    private CalibrateCommand() {
    }

    static int run(List<String> args, PrintStream out) throws IOException, InterruptedException {
        List<String> rest = new ArrayList<>();
        String vary = null;
        String scenarios = "heap,http-threads,jdbc,combined";
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals("--vary") && i + 1 < args.size()) {
                vary = args.get(++i);
            } else if (args.get(i).equals("--scenarios") && i + 1 < args.size()) {
                scenarios = args.get(++i);
            } else {
                rest.add(args.get(i));
            }
        }
        String option = null;
        List<String> values = List.of("default");
        if (vary != null) {
            int eq = vary.indexOf('=');
            if (eq < 1 || eq == vary.length() - 1) {
                throw new IllegalArgumentException("--vary needs OPTION=v1,v2,..., got '" + vary + "'");
            }
            option = vary.substring(0, eq);
            if (!SweepCommand.VALUED.contains(option) || List.of("out", "work-dir", "name", "policies", "scenarios")
                    .contains(option)) {
                throw new IllegalArgumentException("--vary: '" + option + "' is not a sweep option that can be varied");
            }
            values = SweepCommand.list(vary.substring(eq + 1));
        }
        Path root = Locations.from(Options.parse(rest, SweepCommand.VALUED, SweepCommand.FLAGS)).root();
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
        for (String value : values) {
            String label = option == null ? "default" : option + "-" + value;
            List<String> sweepArgs = new ArrayList<>(rest);
            if (option != null) {
                sweepArgs.addAll(List.of("--" + option, value));
            }
            sweepArgs.addAll(List.of("--scenarios", scenarios, "--policies", String.join(",", ROWS), "--out",
                    folder.resolve(label).toString(), "--work-dir", workRoot(root).resolve(label).toString(),
                    "--name", "calibration"));
            out.println("calibrating " + label);
            SweepCommand.run(sweepArgs, out);
            // every value calibrated into this folder so far, this run's and earlier runs'
            StringBuilder table = new StringBuilder(md);
            for (Path results : valueFolders(folder)) {
                String shown = option == null ? "default" : results.getFileName().toString().substring(option.length() + 1);
                for (String scenario : SweepCommand.list(scenarios)) {
                    for (String row : ROWS) {
                        table.append(line(shown, scenario, row, SweepRunner.readCell(results, scenario, row),
                                workRoot(root).resolve(results.getFileName()).resolve(scenario + "-" + row)));
                    }
                }
            }
            Files.writeString(folder.resolve("calibration.md"), table, StandardCharsets.UTF_8);
        }
        out.println("calibration: " + folder.resolve("calibration.md"));
        return 0;
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

    private static String line(String value, String scenario, String row, CellResult r, Path cellWork)
            throws IOException {
        if (r == null) {
            return ""; // a value calibrated with other scenarios
        }
        if (r.error() != null) {
            return String.format(Locale.ROOT, "| %s | %s | %s | error: %s | | | | | | | | |%n", value, scenario, row,
                    r.error().replace('\n', ' ').replace('|', '/'));
        }
        Path log = cellWork.resolve("nodes/VCN3/node.log");
        boolean oom = Files.exists(log) && Files.readString(log, StandardCharsets.UTF_8).contains("OutOfMemoryError");
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
