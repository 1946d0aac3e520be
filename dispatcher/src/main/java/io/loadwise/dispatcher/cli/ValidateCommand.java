package io.loadwise.dispatcher.cli;

import io.loadwise.cli.HelpOption;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.tls.TlsConfigCheck;
import java.io.PrintStream;
import java.nio.file.Path;
import io.loadwise.dispatcher.route.RouteWarnings;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code loadwise validate --config FILE}. */
@Command(name = "validate",
        description = {"Check a configuration file: exit 0 if it is valid, 1 with every problem on stderr.",
            "A valid file prints \"config OK: N clusters\"; each problem is one line on stderr, naming the field.",
            "The admin token and agent secret are checked too, with LOADWISE_ADMIN_TOKEN and LOADWISE_AGENT_SECRET "
                + "from the environment, so a file that passes "
                + "starts with run."},
        footer = {"Example: loadwise validate --config loadwise.json",
            "Exit codes: 0 valid, 1 invalid configuration, 2 usage error."})
final class ValidateCommand implements CliCommand {

    @Option(names = {"--config", "-c"}, paramLabel = "FILE", required = true,
            description = "the configuration file (docs/configuration.md)")
    Path config;

    @Mixin
    HelpOption help;

    @Override
    public int run(PrintStream out, PrintStream err, Map<String, String> env) {
        List<String> errors = new ArrayList<>();
        LoadwiseConfig loaded = ConfigCheck.load(config, env, errors);
        if (!errors.isEmpty()) {
            errors.forEach(e -> err.println(config + ": " + e));
            return Main.INVALID;
        }
        for (String warning : TlsConfigCheck.warnings(loaded, Instant.now())) {
            err.println(config + ": warning: " + warning);
        }
        for (String warning : RouteWarnings.of(loaded)) {
            err.println(config + ": warning: " + warning);
        }
        int listeners = loaded.listenersOrEmpty().size();
        int routes = loaded.listenersOrEmpty().stream().mapToInt(l -> l.routesOrEmpty().size()).sum();
        out.println("config OK: " + loaded.clustersOrEmpty().size() + " clusters"
                + (listeners == 0 ? "" : ", " + listeners + " listeners (" + routes + " routes)"));
        return Main.OK;
    }
}
