package io.loadwise.bench;

import io.loadwise.bench.chaos.ChaosRun;
import io.loadwise.bench.chaos.ChaosResults;
import io.loadwise.cli.ExitCode;
import io.loadwise.cli.HelpOption;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code chaos}: the long fault-injection run of the "Resilience" issue on the shipped jar, real node
 * processes and a steady open-loop load, one case at a time (see {@link ChaosRun}). Results:
 * {@code README.md}, {@code chaos.csv} and {@code chaos.json} in {@code benchmarks/results/<date>-chaos/}; the
 * processes' logs stay in {@code benchmarks/runner/target/chaos-work/}.
 */
@Command(name = "chaos", customSynopsis = "loadwise bench chaos [--cases kill,stop,...] [--duration S] [--rate N]",
        description = {"Fault injection on the shipped jar under steady load: SIGKILL, SIGSTOP, 500s, 2 s answers and resets.",
            "Each case runs on fresh processes: three chaos nodes (four for reload), the dispatcher"
                + " (admin-console/target/loadwise.jar run --config FILE) and an open-loop load of N GET/s through it."
                + " Cases: kill (SIGKILL, then restart), stop (SIGSTOP, then SIGCONT), 500, slow, reset (the node"
                + " answers 500, takes 2 s, resets connections, then recovers); each measures failed requests by cause"
                + " and phase, time to ejection, time to readmission and the slow-start ramp. policies: a live switch"
                + " through every policy each second; reload: --reloads reloads adding and removing nodes (POST"
                + " /api/reload and SIGHUP); both for --duration seconds. About 7 minutes with the defaults. Writes"
                + " benchmarks/results/<date>-chaos/: README.md (table), chaos.csv and chaos.json."},
        footer = {"See docs/operations.md, \"Chaos bench\", for what each figure means.",
            "Exit codes: 0 every case passed, 1 a case failed or could not run, 2 usage error."})
final class ChaosCommand implements BenchCommand {

    @Option(names = "--cases", paramLabel = "A,B", description = "only these cases, in this order (default: kill,stop,500,slow,reset,policies,reload)")
    String cases;

    @Option(names = "--duration", paramLabel = "S", defaultValue = "60",
            description = "seconds of load in the policies and reload cases, 10-3600 (default ${DEFAULT-VALUE})")
    int duration;

    @Option(names = "--rate", paramLabel = "N", defaultValue = "300",
            description = "requests per second of the load, 10-2000 (default ${DEFAULT-VALUE})")
    int rate;

    @Option(names = "--reloads", paramLabel = "N", defaultValue = "50",
            description = "reloads in the reload case, 1-1000, at most 10 per second of --duration (default ${DEFAULT-VALUE})")
    int reloads;

    @Mixin
    ShippedJar shipped = new ShippedJar();

    @Mixin
    HelpOption help;

    ChaosCommand() {
    }

    @Override
    public int call(PrintStream out) throws IOException, InterruptedException {
        List<String> chosen = chosen(cases);
        if (duration < 10 || duration > 3_600) {
            throw new IllegalArgumentException("--duration must be 10-3600 seconds, got " + duration);
        }
        if (rate < 10 || rate > 2_000) {
            throw new IllegalArgumentException("--rate must be 10-2000 requests per second, got " + rate);
        }
        if (reloads < 1 || reloads > 1_000 || reloads > duration * 10) {
            throw new IllegalArgumentException("--reloads must be 1-1000 and at most 10 per second of --duration, got "
                    + reloads);
        }
        Path root = shipped.root();
        Path jar = shipped.jar();
        Path work = root.resolve("benchmarks/runner/target/chaos-work");
        Path results = folder(root.resolve("benchmarks/results"), LocalDate.now(ZoneOffset.UTC));
        out.println("chaos: " + String.join(",", chosen) + " at " + rate + " req/s; results in " + results);
        ChaosResults report = new ChaosResults(results, jar, rate, duration, reloads, String.join(",", chosen));
        ChaosRun run = new ChaosRun(jar, work, rate, duration, reloads, out);
        boolean ok = true;
        for (String name : chosen) {
            try {
                ok &= report.add(run.run(name));
            } catch (IOException e) {
                out.println("chaos: " + name + ": could not run: " + e.getMessage());
                report.couldNotRun(name, e.getMessage());
                ok = false;
            }
            report.write();
        }
        out.println("chaos: " + (ok ? "every case passed" : "a case FAILED") + "; " + results.resolve("README.md"));
        return ok ? ExitCode.OK : ExitCode.FAILURE;
    }

    /** {@code <date>-chaos}, or {@code <date>-chaos-2}, ... when an earlier run of the day has it. */
    static Path folder(Path resultsRoot, LocalDate today) throws IOException {
        return folder(resultsRoot, today + "-chaos");
    }

    /** {@code resultsRoot/base}, or {@code base-2}, ... when it exists already; created. */
    static Path folder(Path resultsRoot, String base) throws IOException {
        Path dir = resultsRoot.resolve(base);
        for (int i = 2; Files.exists(dir); i++) {
            dir = resultsRoot.resolve(base + "-" + i);
        }
        return Files.createDirectories(dir);
    }

    static List<String> chosen(String cases) {
        if (cases == null) {
            return ChaosRun.CASES;
        }
        List<String> chosen = new ArrayList<>();
        for (String name : cases.split(",")) {
            String c = name.strip().toLowerCase(Locale.ROOT);
            if (!ChaosRun.CASES.contains(c)) {
                throw new IllegalArgumentException("--cases: unknown case '" + name.strip() + "' (known: "
                        + String.join(", ", ChaosRun.CASES) + ")");
            }
            chosen.add(c);
        }
        return chosen;
    }
}
