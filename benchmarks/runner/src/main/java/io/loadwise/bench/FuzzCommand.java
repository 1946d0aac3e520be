package io.loadwise.bench;

import io.loadwise.bench.fuzz.FuzzOutcome;
import io.loadwise.bench.fuzz.FuzzRun;
import io.loadwise.bench.fuzz.FuzzTarget;
import io.loadwise.cli.ExitCode;
import io.loadwise.cli.HelpOption;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code fuzz}: every Jazzer fuzz target, one after the other, for longer than the 15 s that
 * {@code mvn verify} gives each. Targets are found by name ({@code *FuzzTest} under a module's
 * {@code src/test/java}), so a new target needs no change here. Results: {@code fuzz.md}, each target's
 * progress log and its findings in {@code benchmarks/results/<date>-fuzz/}.
 */
@Command(name = "fuzz", customSynopsis = "loadwise bench fuzz [--minutes N] [--only Target,...] [--list]",
        description = {"Every Jazzer fuzz target, for longer than mvn verify does (--minutes N).",
            "Runs every Jazzer fuzz target (each *FuzzTest class under a module's src/test/java) for N minutes, one after"
                + " the other, through Maven: the same surefire execution \"fuzz\" that gives each target 15 s in mvn"
                + " verify. Needs mvn on the PATH. Prints each target's progress. Writes benchmarks/results/<date>-fuzz/:"
                + " fuzz.md (per target: outcome, inputs run, coverage, corpus), <Target>.log (progress and errors) and"
                + " <Target>/ with any crash-, timeout- or oom- input. Jazzer's corpus stays in"
                + " benchmarks/runner/target/fuzz-work/<Target>/, so the next run starts from it."},
        footer = {"See docs/security.md, \"Fuzzing\", for what a target checks and how to add one.",
            "Exit codes: 0 every target passed, 1 a target has a finding or fails to run, 2 usage error."})
final class FuzzCommand implements BenchCommand {

    @Option(names = "--minutes", paramLabel = "N", defaultValue = "5",
            description = "fuzzing time per target, more than 0 and at most 1440; decimals allowed (default ${DEFAULT-VALUE})")
    double minutes;

    @Option(names = "--only", paramLabel = "A,B", description = "only these targets (simple class names)")
    String only;

    @Option(names = "--list", description = "print the targets and exit")
    boolean list;

    @Option(names = "--root", paramLabel = "DIR", description = "the repository (default: the one this jar was built in)")
    Path root;

    @Mixin
    HelpOption help;

    FuzzCommand() {
    }

    @Override
    public int call(PrintStream out) throws IOException, InterruptedException {
        if (!(minutes > 0 && minutes <= 24 * 60)) {
            throw new IllegalArgumentException("--minutes must be more than 0 and at most 1440, got "
                    + BigDecimal.valueOf(minutes).stripTrailingZeros().toPlainString());
        }
        Path root = (this.root != null ? this.root : Locations.defaultRoot()).toAbsolutePath().normalize();
        List<FuzzTarget> targets = chosen(FuzzTarget.discover(root), only);
        if (list) {
            targets.forEach(t -> out.println(t.simpleName() + "  " + t.module() + "  " + t.className()));
            return ExitCode.OK;
        }
        Duration each = Duration.ofSeconds(Math.max(1, Math.round(minutes * 60)));
        Path results = resultsFolder(root.resolve("benchmarks/results"), LocalDate.now(ZoneOffset.UTC));
        out.println("fuzz: " + targets.size() + (targets.size() == 1 ? " target, " : " targets, ") + format(each)
                + " each, results in " + results);
        Instant started = Instant.now();
        List<FuzzOutcome> outcomes = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
            FuzzTarget target = targets.get(i);
            out.println("fuzz: [" + (i + 1) + "/" + targets.size() + "] " + target.simpleName() + " ("
                    + target.module() + ") for " + format(each));
            Path work = root.resolve("benchmarks/runner/target/fuzz-work").resolve(target.simpleName());
            FuzzOutcome outcome = new FuzzRun(target, root, work, each).run("mvn", out, results);
            out.println("fuzz: " + target.simpleName() + ": " + outcome.verdict());
            outcomes.add(outcome);
            Files.writeString(results.resolve("fuzz.md"), summary(outcomes, each, started), StandardCharsets.UTF_8);
        }
        long failed = outcomes.stream().filter(r -> !r.passed()).count();
        out.println("fuzz: " + (outcomes.size() - failed) + " passed, " + failed + " failed; "
                + results.resolve("fuzz.md"));
        return failed == 0 ? ExitCode.OK : ExitCode.FAILURE;
    }

    /** The targets named by {@code --only} (simple class names, comma-separated), or all of them. */
    static List<FuzzTarget> chosen(List<FuzzTarget> all, String only) {
        if (all.isEmpty()) {
            throw new IllegalArgumentException("no fuzz targets (*FuzzTest classes under */src/test/java) found");
        }
        if (only == null) {
            return all;
        }
        List<FuzzTarget> picked = new ArrayList<>();
        for (String part : only.split(",")) {
            if (!part.isBlank()) {
                picked.add(named(all, part.strip()));
            }
        }
        if (picked.isEmpty()) {
            throw new IllegalArgumentException("--only needs target names, e.g. --only " + all.get(0).simpleName());
        }
        return picked;
    }

    private static FuzzTarget named(List<FuzzTarget> all, String name) {
        for (FuzzTarget target : all) {
            if (target.simpleName().equals(name)) {
                return target;
            }
        }
        throw new IllegalArgumentException("--only: unknown fuzz target '" + name + "'; known: "
                + String.join(", ", all.stream().map(FuzzTarget::simpleName).toList()));
    }

    /** {@code <date>-fuzz}, or {@code <date>-fuzz-2}, ... when an earlier run of the day has it. */
    static Path resultsFolder(Path resultsRoot, LocalDate today) throws IOException {
        Path dir = resultsRoot.resolve(today + "-fuzz");
        for (int i = 2; Files.exists(dir); i++) {
            dir = resultsRoot.resolve(today + "-fuzz-" + i);
        }
        return Files.createDirectories(dir);
    }

    static String summary(List<FuzzOutcome> outcomes, Duration each, Instant started) {
        StringBuilder md = new StringBuilder("# Fuzzing\n\n")
                .append("`./loadwise bench fuzz`: every target fuzzed for ").append(format(each))
                .append(", started ").append(started).append(" on ")
                .append(Runtime.getRuntime().availableProcessors()).append(" CPUs, Java ")
                .append(System.getProperty("java.version")).append(".\n\n")
                .append("A finding is an input that made a target throw what its parser does not document,"
                        + " hang for more than 10 s or run out of its 512 MB heap. Each is kept in `<Target>/`;"
                        + " `<Target>.log` has the exception. To keep one as a regression test after the fix, copy it"
                        + " into the module's `src/test/resources/<package>/<Target>Inputs/<method>/`"
                        + " (docs/security.md, \"Fuzzing\").\n\n")
                .append("| target | module | outcome | inputs run | inputs/s | coverage | corpus |\n")
                .append("|---|---|---|---:|---:|---:|---:|\n");
        for (FuzzOutcome r : outcomes) {
            md.append("| ").append(r.target().simpleName()).append(" | ").append(r.target().module()).append(" | ")
                    .append(r.verdict().replace('|', '/')).append(" | ");
            if (r.last() == null) {
                md.append("| | | |\n");
            } else {
                md.append(String.format(Locale.ROOT, "%d | %d | %d | %d |%n", r.last().runs(), r.last().execPerSecond(),
                        r.last().coverage(), r.last().corpus()));
            }
        }
        return md.toString();
    }

    private static String format(Duration d) {
        return d.toSeconds() % 60 == 0 ? d.toMinutes() + " min" : d.toSeconds() + " s";
    }
}
