package io.loadwise.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code overhead}: the proxy-overhead benchmark ({@code benchmarks/overhead/run-overhead.sh}: wrk direct,
 * through Loadwise L7/L4, HAProxy and NGINX) and the policies' selection cost
 * ({@code benchmarks/jmh/run-policy-bench.sh}, JMH). Each script writes its own results folder under
 * {@code benchmarks/results/}; the agent filter's per-request cost is a JMH benchmark of the agent module
 * (see docs/agent.md), run by {@code benchmarks/runner/run-agent-filter-bench.sh}. All three are then
 * copied into {@code benchmarks/results/<date>-overhead/}.
 */
final class OverheadCommand {

    static final String USAGE = """
            Usage: loadwise bench overhead [--only proxy|policies|agent]
              proxy     benchmarks/overhead/run-overhead.sh  -> benchmarks/results/proxy-overhead/
              policies  benchmarks/jmh/run-policy-bench.sh   -> benchmarks/results/policy-selection/
              agent     benchmarks/runner/run-agent-filter-bench.sh -> benchmarks/results/agent-filter/
            Environment variables of the scripts (RUNS, DURATION, FORKS, ...) pass through.
            """;

    private OverheadCommand() {
    }

    static int run(List<String> args, PrintStream out) throws IOException, InterruptedException {
        Options o = Options.parse(args, java.util.Set.of("only", "root"), java.util.Set.of());
        Path root = Path.of(o.get("root", Locations.defaultRoot().toString()));
        String only = o.get("only", null);
        List<String[]> scripts = List.of(
                new String[] {"proxy", "benchmarks/overhead/run-overhead.sh", "proxy-overhead"},
                new String[] {"policies", "benchmarks/jmh/run-policy-bench.sh", "policy-selection"},
                new String[] {"agent", "benchmarks/runner/run-agent-filter-bench.sh", "agent-filter"});
        Path folder = root.resolve("benchmarks/results").resolve(LocalDate.now(ZoneOffset.UTC) + "-overhead");
        if (only != null && scripts.stream().noneMatch(s -> s[0].equals(only))) {
            throw new IllegalArgumentException("--only: unknown benchmark '" + only + "'; known: proxy, policies, agent");
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
            int code = new ProcessBuilder("bash", file.toString()).directory(root.toFile()).inheritIO().start().waitFor();
            if (code != 0) {
                out.println("overhead: " + script[1] + " exited with " + code);
                failures++;
            } else {
                copyTree(root.resolve("benchmarks/results").resolve(script[2]), folder.resolve(script[2]));
            }
        }
        out.println("overhead: results in " + folder);
        return failures == 0 ? 0 : 1;
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
