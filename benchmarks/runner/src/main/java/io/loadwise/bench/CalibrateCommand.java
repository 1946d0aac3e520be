package io.loadwise.bench;

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
import java.util.List;
import java.util.Locale;

/**
 * {@code calibrate}: runs the baseline and heap scenarios under HTTP round robin for several full-node
 * heap sizes and reports, per size, throughput, failures and whether VCN3 (half heap) ran out of memory.
 * The sweep's default heap is the largest size at which the half-heap node runs short while the baseline
 * stays clean: that is how the seed's 512/256 MB behaved on its testbed.
 */
final class CalibrateCommand {

    static final String USAGE = """
            Usage: loadwise bench calibrate [--heaps 64,96,128,256] [--scale X] [sweep options]
              For each full-node heap (MB): baseline and heap scenarios x HTTP round-robin, at the sweep's
              duration scale. Writes benchmarks/results/<date>-calibration/calibration.md with throughput,
              JMeter failures, and whether VCN3 logged an OutOfMemoryError, per heap.
            """;

    private CalibrateCommand() {
    }

    static int run(List<String> args, PrintStream out) throws IOException, InterruptedException {
        List<String> rest = new ArrayList<>();
        String heaps = "64,96,128,256";
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals("--heaps") && i + 1 < args.size()) {
                heaps = args.get(++i);
            } else {
                rest.add(args.get(i));
            }
        }
        Path root = Locations.from(Options.parse(rest, SweepCommand.VALUED, SweepCommand.FLAGS)).root();
        Path folder = root.resolve("benchmarks/results").resolve(LocalDate.now(ZoneOffset.UTC) + "-calibration");
        StringBuilder md = new StringBuilder("# Heap calibration\n\n").append(Environment.describe()).append("\n\n")
                .append("HTTP round-robin; VCN3 has half the heap in the heap scenario. OOM = VCN3's log holds an"
                        + " OutOfMemoryError.\n\n| full heap MB | scenario | samples | throughput | failed (JMeter) |"
                        + " VCN3 selections | VCN3 OOM |\n|---:|---|---:|---:|---:|---:|---|\n");
        for (String heap : SweepCommand.list(heaps)) {
            Path heapDir = folder.resolve("heap-" + heap);
            Path work = root.resolve("benchmarks/runner/target/calibrate-work/heap-" + heap);
            List<String> sweepArgs = new ArrayList<>(rest);
            sweepArgs.addAll(List.of("--scenarios", "baseline,heap", "--policies", "http-round-robin", "--heap-mb", heap,
                    "--out", heapDir.toString(), "--work-dir", work.toString(), "--name", "calibration"));
            SweepCommand.run(sweepArgs, out);
            for (String scenario : List.of("baseline", "heap")) {
                CellResult r = SweepRunner.readCell(heapDir, scenario, "http-round-robin");
                Path log = work.resolve(scenario + "-http-round-robin/nodes/VCN3/node.log");
                boolean oom = Files.exists(log) && Files.readString(log, StandardCharsets.UTF_8).contains("OutOfMemoryError");
                md.append(r == null || r.error() != null
                        ? String.format(Locale.ROOT, "| %s | %s | error: %s | | | | |%n", heap, scenario,
                                r == null ? "no result" : r.error().replace('\n', ' '))
                        : String.format(Locale.ROOT, "| %s | %s | %d | %.1f | %d | %d | %s |%n", heap, scenario,
                                r.samples(), r.throughput(), r.failed(), r.selections().getOrDefault("VCN3", 0L),
                                oom ? "yes" : "no"));
            }
            Files.writeString(folder.resolve("calibration.md"), md, StandardCharsets.UTF_8);
        }
        out.println("calibration: " + folder.resolve("calibration.md"));
        return 0;
    }
}
