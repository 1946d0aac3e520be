package io.loadwise.bench;

import io.loadwise.cli.ExitCode;
import io.loadwise.cli.HelpOption;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code overhead}: the proxy-overhead benchmark ({@code benchmarks/overhead/run-overhead.sh}: wrk direct,
 * through the shipped Loadwise jar at L7/L4, HAProxy and NGINX, at 1 and 2 threads; writes
 * {@code <date>-overhead/proxy/} itself), the same over TLS ({@code run-tls-h2.sh}: HTTPS/1.1 with wrk and h2
 * with h2load, same certificate for all; {@code <date>-overhead/tls-h2/}) and the policies' selection cost
 * ({@code benchmarks/jmh/run-policy-bench.sh}, JMH). Each script writes its own results folder under
 * {@code benchmarks/results/}; the agent filter's per-request cost is a JMH benchmark of the agent module
 * (see docs/agent.md), run by {@code benchmarks/runner/run-agent-filter-bench.sh}. All three are then
 * copied into {@code benchmarks/results/<date>-overhead/}.
 */
@Command(name = "overhead", customSynopsis = "loadwise bench overhead [--only proxy|tls-h2|policies|agent]",
        description = {"Proxy overhead (wrk), policy selection cost and agent filter cost (JMH).",
            "Runs, and copies the results of each into benchmarks/results/<date>-overhead/:",
            "  proxy     benchmarks/overhead/run-overhead.sh  -> benchmarks/results/<date>-overhead/proxy/",
            "  tls-h2    benchmarks/overhead/run-tls-h2.sh    -> benchmarks/results/<date>-overhead/tls-h2/",
            "  policies  benchmarks/jmh/run-policy-bench.sh   -> benchmarks/results/policy-selection/",
            "  agent     benchmarks/runner/run-agent-filter-bench.sh -> benchmarks/results/agent-filter/",
            "Environment variables of the scripts (RUNS, DURATION, FORKS, ...) pass through."},
        footer = "Exit codes: 0 every script ran, 1 a script is missing or failed, 2 usage error.")
final class OverheadCommand implements BenchCommand {

    @Option(names = "--only", paramLabel = "proxy|tls-h2|policies|agent", description = "only this benchmark")
    String only;

    @Option(names = "--root", paramLabel = "DIR", description = "the repository (default: the one this jar was built in)")
    Path root;

    @Mixin
    HelpOption help;

    OverheadCommand() {
    }

    @Override
    public int call(PrintStream out) throws IOException, InterruptedException {
        Path root = this.root != null ? this.root : Locations.defaultRoot();
        List<String[]> scripts = List.of(
                new String[] {"proxy", "benchmarks/overhead/run-overhead.sh", "proxy"},
                new String[] {"tls-h2", "benchmarks/overhead/run-tls-h2.sh", "tls-h2"},
                new String[] {"policies", "benchmarks/jmh/run-policy-bench.sh", "policy-selection"},
                new String[] {"agent", "benchmarks/runner/run-agent-filter-bench.sh", "agent-filter"});
        Path folder = root.resolve("benchmarks/results").resolve(LocalDate.now(ZoneOffset.UTC) + "-overhead");
        if (only != null && scripts.stream().noneMatch(s -> s[0].equals(only))) {
            throw new IllegalArgumentException("--only: unknown benchmark '" + only + "'; known: proxy, tls-h2, policies, agent");
        }
        int failures = 0;
        for (String[] script : scripts) {
            if (only != null && !only.equals(script[0])) {
                continue;
            }
            Path file = root.resolve(script[1]);
            if (!Files.isRegularFile(file)) {
                out.println("overhead: " + script[0] + ": " + file + " is missing in this checkout");
                failures++;
                continue;
            }
            out.println("overhead: running " + script[1]);
            ProcessBuilder process = new ProcessBuilder("bash", file.toString()).directory(root.toFile()).inheritIO();
            // the proxy and tls-h2 scripts write into the dated folder themselves
            boolean writesInPlace = script[0].equals("proxy") || script[0].equals("tls-h2");
            if (writesInPlace) {
                process.environment().put("OUT", folder.resolve(script[2]).toString());
            }
            int code = process.start().waitFor();
            if (code != 0) {
                out.println("overhead: " + script[1] + " exited with " + code);
                failures++;
            } else if (!writesInPlace) {
                copyTree(root.resolve("benchmarks/results").resolve(script[2]), folder.resolve(script[2]));
            }
        }
        out.println("overhead: results in " + folder);
        return failures == 0 ? ExitCode.OK : ExitCode.FAILURE;
    }

    /** Copies a script's own results folder into the dated folder that collects all three. */
    private static void copyTree(Path from, Path to) throws IOException {
        if (!Files.isDirectory(from)) {
            return;
        }
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
