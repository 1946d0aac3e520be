package io.loadwise.dispatcher.cli;

import java.util.Set;

/** The text of {@code loadwise --help}. */
final class Help {

    private Help() {
    }

    /** Commands the ./loadwise script runs itself (other programs), unless a module provides them. */
    static final Set<String> LAUNCHER_COMMANDS = Set.of("demo", "bench", "simulate", "capacity", "passwd");

    static String text(Iterable<CliCommand> extensions) {
        StringBuilder more = new StringBuilder();
        for (CliCommand command : extensions) {
            if (LAUNCHER_COMMANDS.contains(command.name())) {
                continue; // already described above
            }
            more.append(String.format("  %-11s %s%n", command.name(), command.summary()));
        }
        String text = """
                Loadwise: a Java EE-aware load balancer (L4 TCP tunnel and L7 HTTP reverse proxy).

                Usage: loadwise <command> [options]

                Commands:
                  run --config FILE [--log-level LEVEL]
                        Start the dispatcher: one listener per cluster, the admin console when it is
                        built in. Stops cleanly on Ctrl-C / SIGTERM. LEVEL: trace, debug, info, warn,
                        error, off (overrides logging.level).
                  validate --config FILE
                        Check a configuration file and exit: 0 and "config OK: N clusters", or 1 with
                        every problem on stderr, one per line, naming the field.
                  demo        Start a local demo (nodes, dispatcher, console).       [launcher]
                  bench       Run the benchmarks, results in benchmarks/results/.     [launcher]
                  simulate    Run the policy simulator.                               [launcher]
                  capacity    Capacity planning with the simulator.                   [launcher]
                  passwd      Set the admin console password.                         [admin console]
                  --help      This text.
                  --version   Print the version.

                Commands marked [launcher] are handled by the ./loadwise script at the top of the
                source tree, which starts the right program for them; [admin console] ones exist
                when the admin console is built in.

                Environment:
                  LOADWISE_ADMIN_TOKEN   bearer token of the admin API; overrides admin.token.
                                         One of the two is required, there is no default.

                Exit codes: 0 success, 1 invalid configuration or startup failure, 2 usage error.
                Configuration reference: docs/configuration.md; operations: docs/operations.md.
                """;
        return more.length() == 0 ? text
                : text.replace("  --help      This text.\n", more + "  --help      This text.\n");
    }
}
