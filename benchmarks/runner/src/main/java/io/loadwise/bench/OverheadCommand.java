package io.loadwise.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code overhead}: the proxy-overhead benchmark ({@code benchmarks/overhead/run-overhead.sh}: wrk direct,
 * through Loadwise L7/L4, HAProxy and NGINX) and the policies' selection cost
 * ({@code benchmarks/jmh/run-policy-bench.sh}, JMH). Each script writes its own results folder under
 * {@code benchmarks/results/}; the agent filter's per-request cost is a JMH benchmark of the agent module
 * (see docs/agent.md), run by {@code benchmarks/runner/run-agent-filter-bench.sh}.
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
        List<String[]> scripts = List.of(new String[] {"proxy", "benchmarks/overhead/run-overhead.sh"},
                new String[] {"policies", "benchmarks/jmh/run-policy-bench.sh"},
                new String[] {"agent", "benchmarks/runner/run-agent-filter-bench.sh"});
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
            }
        }
        return failures == 0 ? 0 : 1;
    }
}
