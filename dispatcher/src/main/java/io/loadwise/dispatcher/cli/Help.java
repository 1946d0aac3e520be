package io.loadwise.dispatcher.cli;

/** The text of {@code loadwise --help}. */
final class Help {

    private Help() {
    }

    static String text() {
        return """
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
                  passwd      Set the admin console password / token.                 [launcher]
                  --help      This text.
                  --version   Print the version.

                Commands marked [launcher] are handled by the ./loadwise script at the top of the
                source tree, which starts the right program for them.

                Environment:
                  LOADWISE_ADMIN_TOKEN   bearer token of the admin API; overrides admin.token.
                                         One of the two is required, there is no default.

                Exit codes: 0 success, 1 invalid configuration or startup failure, 2 usage error.
                Configuration reference: docs/configuration.md; operations: docs/operations.md.
                """;
    }
}
