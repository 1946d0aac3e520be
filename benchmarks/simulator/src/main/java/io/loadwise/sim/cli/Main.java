package io.loadwise.sim.cli;

import io.loadwise.cli.Cli;
import io.loadwise.cli.HelpCommand;
import io.loadwise.cli.HelpOption;
import java.io.PrintStream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Entry point of {@code loadwise-simulator.jar}: {@code simulate ...} or {@code capacity ...}. */
@Command(name = "loadwise", customSynopsis = "loadwise-simulator.jar (simulate|capacity) [options]",
        description = "The policy simulator and the capacity planner; ./loadwise simulate and ./loadwise capacity run them.")
public final class Main {

    @Mixin
    HelpOption help;

    private Main() {
    }

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        System.exit(run(args, System.out, System.err));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        CommandLine top = new CommandLine(new Main());
        top.addSubcommand(new SimulateCommand());
        top.addSubcommand(new CapacityCommand());
        top.addSubcommand(new HelpCommand());
        Cli.configure(top);
        return Cli.execute(top, args, out, err, chosen -> chosen.getCommand() instanceof CommandRun.Body body
                ? CommandRun.run(chosen, body, out, err)
                : Cli.usageError(chosen, "a command is required: simulate or capacity", err));
    }
}
