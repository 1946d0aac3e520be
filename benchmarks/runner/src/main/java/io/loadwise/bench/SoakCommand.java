package io.loadwise.bench;

import io.loadwise.bench.chaos.SoakReport;
import io.loadwise.bench.chaos.SoakResult;
import io.loadwise.bench.chaos.SoakRun;
import io.loadwise.cli.ExitCode;
import io.loadwise.cli.HelpOption;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code soak}: the endurance run of issue 35 (item 6) on the shipped jar: {@link SoakRun} for N minutes, then
 * {@link SoakReport} into {@code benchmarks/results/<date>-soak[-name]/}.
 */
@Command(name = "soak", customSynopsis = "loadwise bench soak [--minutes N] [--rate R] [--fault-every S] [--etcd] [--name NAME]",
        description = {"Endurance on the shipped jar: N minutes of open-loop GET load through the dispatcher"
                + " (admin-console/target/loadwise.jar run --config FILE) in front of four chaos nodes, one fault every S"
                + " seconds by turns: kill (a node SIGKILLed and restarted), reload (a node removed or added), policy (a"
                + " live policy switch), etcd (an etcd member restarted, with --etcd only), slow (a node answering in 2 s"
                + " for a while), storm (3000 new short connections).",
            "Counts failed requests per minute inside and outside kill windows (SIGKILL until the node is back in"
                + " selection), samples the dispatcher's RSS, file descriptors and threads every 10 s and computes their"
                + " slope after the warm-up in %% per hour. Writes benchmarks/results/<date>-soak[-NAME]/: README.md,"
                + " soak.csv, faults.csv and soak.png."},
        footer = {"See docs/operations.md, \"Soak\", for what each figure means.",
            "Exit codes: 0 every requirement passed, 1 one failed or the run could not start, 2 usage error."})
final class SoakCommand implements BenchCommand {

    @Option(names = "--minutes", paramLabel = "N", defaultValue = "60", description = "length of the load, 1-600 (default ${DEFAULT-VALUE})")
    int minutes;

    @Option(names = "--rate", paramLabel = "R",
            description = "requests per second, 10-5000 (default: 70 %% of the capacity a short ramp measures at the start)")
    Integer rate;

    @Option(names = "--fault-every", paramLabel = "S", defaultValue = "60",
            description = "seconds between faults, 20-3600 (default ${DEFAULT-VALUE})")
    int faultEvery;

    @Option(names = "--etcd", description = "the etcd store on a real 3-member etcd cluster (etcd must be installed);"
            + " adds the etcd member restarts")
    boolean etcd;

    @Option(names = "--name", paramLabel = "NAME", description = "results folder suffix: <date>-soak-NAME (letters, digits, '-', '_')")
    String name;

    @Mixin
    ShippedJar shipped = new ShippedJar();

    @Mixin
    HelpOption help;

    SoakCommand() {
    }

    /** The options' checks, before anything starts. */
    void validate() {
        if (minutes < 1 || minutes > 600) {
            throw new IllegalArgumentException("--minutes must be 1-600, got " + minutes);
        }
        if (rate != null && (rate < 10 || rate > 5_000)) {
            throw new IllegalArgumentException("--rate must be 10-5000 requests per second, got " + rate);
        }
        if (faultEvery < 20 || faultEvery > 3_600) {
            throw new IllegalArgumentException("--fault-every must be 20-3600 seconds, got " + faultEvery);
        }
        if (name != null && !name.matches("[A-Za-z0-9_-]{1,40}")) {
            throw new IllegalArgumentException("--name must be 1-40 letters, digits, '-' or '_', got '" + name + "'");
        }
    }

    @Override
    public int call(PrintStream out) throws IOException, InterruptedException {
        validate();
        Path root = shipped.root();
        Path jar = shipped.jar();
        String started = Instant.now().toString();
        Path results = ChaosCommand.folder(root.resolve("benchmarks/results"), folderName(LocalDate.now(ZoneOffset.UTC), name));
        out.println("soak: " + minutes + " min, a fault every " + faultEvery + " s; results in " + results);
        SoakResult result = new SoakRun(jar, root.resolve("benchmarks/runner/target/soak-work"), minutes,
                rate == null ? 0 : rate, faultEvery, etcd, out).run();
        boolean ok = SoakReport.write(results, result, commandLine(), started);
        out.println("soak: " + (ok ? "every requirement passed" : "a requirement FAILED") + "; " + results.resolve("README.md"));
        return ok ? ExitCode.OK : ExitCode.FAILURE;
    }

    /** {@code <date>-soak}, {@code <date>-soak-NAME}, or {@code <date>-NAME} when NAME starts with "soak". */
    static String folderName(LocalDate today, String name) {
        if (name == null) {
            return today + "-soak";
        }
        return today + (name.startsWith("soak") ? "-" : "-soak-") + name;
    }

    /** The command as the README shows it. */
    String commandLine() {
        List<String> parts = new ArrayList<>(List.of("./loadwise bench soak", "--minutes " + minutes));
        if (rate != null) {
            parts.add("--rate " + rate);
        }
        parts.add("--fault-every " + faultEvery);
        if (etcd) {
            parts.add("--etcd");
        }
        if (name != null) {
            parts.add("--name " + name);
        }
        return String.join(" ", parts);
    }
}
