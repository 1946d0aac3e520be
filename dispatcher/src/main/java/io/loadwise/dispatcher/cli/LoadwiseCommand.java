package io.loadwise.dispatcher.cli;

import io.loadwise.cli.Cli;
import io.loadwise.cli.HelpCommand;
import io.loadwise.cli.HelpOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/** The top of the {@code loadwise} command line and the tree of its sub-commands. */
@Command(name = "loadwise",
        header = "Loadwise: a Java EE-aware load balancer (L4 TCP tunnel and L7 HTTP reverse proxy).",
        synopsisHeading = "%nUsage: ",
        customSynopsis = "loadwise <command> [options]",
        versionProvider = LoadwiseCommand.Version.class,
        footer = {
            "Commands marked [launcher] are handled by the ./loadwise script at the top of the source tree, which "
                + "starts the right program for them; [admin console] ones exist when the admin console is built in. "
                + "loadwise COMMAND --help shows the options of a command.",
            "",
            "Environment:",
            "  LOADWISE_ADMIN_TOKEN   bearer token of the admin API; overrides admin.token.",
            "                         One of the two is required, there is no default.",
            "  LOADWISE_AGENT_SECRET  shared secret the node agents were given; overrides agent.secret of",
            "                         every cluster.",
            "",
            "Exit codes: 0 success, 1 invalid configuration or startup failure, 2 usage error.",
            "Configuration reference: docs/configuration.md; operations: docs/operations.md."})
final class LoadwiseCommand {

    /** Names the built-in commands own; a contributed command with one of them is ignored. */
    private static final Set<String> BUILT_IN = Set.of("run", "validate", "config", "completion", "help", "version");

    @Option(names = {"-V", "--version"}, versionHelp = true, description = "Print the version.")
    boolean version;

    @Mixin
    HelpOption help;

    static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"loadwise " + Main.version()};
        }
    }

    /** The whole command line, configured: built-ins, launcher placeholders, then {@code contributed}. */
    static CommandLine tree(Iterable<CliCommand> contributed) {
        Map<String, CommandLine> commands = new LinkedHashMap<>();
        commands.put("run", new CommandLine(new RunCommand()));
        commands.put("validate", new CommandLine(new ValidateCommand()));
        commands.put("config", new CommandLine(new ConfigCommand()));
        commands.put("demo", LauncherCommand.of("demo", "Start a local demo (nodes, dispatcher, console).  [launcher]",
                "the ./loadwise launcher runs it from benchmarks/node-launcher (./loadwise demo --help shows its options)"));
        commands.put("bench", LauncherCommand.of("bench", "Run the benchmarks, results in benchmarks/results/.  [launcher]",
                "the ./loadwise launcher runs it from benchmarks/runner (./loadwise bench --help shows its commands)"));
        commands.put("simulate", LauncherCommand.of("simulate", "Run the policy simulator.  [launcher]",
                "the ./loadwise launcher runs it from benchmarks/simulator (./loadwise simulate --help shows its options)"));
        commands.put("capacity", LauncherCommand.of("capacity", "Capacity planning with the queueing models.  [launcher]",
                "the ./loadwise launcher runs it from benchmarks/simulator (./loadwise capacity --help shows its options)"));
        commands.put("passwd", LauncherCommand.of("passwd", "Set the admin console password.  [admin console]",
                "it comes with the admin console, which this jar does not include; run admin-console/target/loadwise.jar"));
        for (CliCommand command : contributed) {
            CommandLine line = new CommandLine(command);
            if (!BUILT_IN.contains(line.getCommandName())) {
                commands.put(line.getCommandName(), line); // replaces a placeholder, keeping its place
            }
        }
        commands.put("completion", new CommandLine(new CompletionCommand()));
        CommandLine top = new CommandLine(new LoadwiseCommand());
        for (Map.Entry<String, CommandLine> command : commands.entrySet()) {
            withHelpOption(command.getValue());
            top.addSubcommand(command.getKey(), command.getValue());
        }
        top.addSubcommand(new VersionCommand());
        top.addSubcommand(new HelpCommand());
        return Cli.configure(top);
    }

    /** Every command answers -h and --help, also a contributed one that did not declare it. */
    private static void withHelpOption(CommandLine command) {
        CommandSpec spec = command.getCommandSpec();
        if (spec.findOption("--help") == null && spec.findOption("-h") == null) {
            spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).description("Show this help and exit.").build());
        }
    }
}
