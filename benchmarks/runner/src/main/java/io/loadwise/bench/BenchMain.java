package io.loadwise.bench;

import io.loadwise.cli.Cli;
import io.loadwise.cli.ExitCode;
import io.loadwise.cli.HelpCommand;
import io.loadwise.cli.HelpOption;
import io.loadwise.cli.UsageException;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code loadwise bench sweep|calibrate|overhead|fuzz|servers|chaos|soak|scale ...}: the benchmark runner's entry point. */
@Command(name = "loadwise bench", customSynopsis = "loadwise bench <command> [options]",
        description = "The benchmarks. Results: benchmarks/results/ (benchmarks/README.md).",
        footer = {"Run \"loadwise bench <command> --help\" for a command's options.",
            "Exit codes: 0 ok, 1 a cell, script or fuzz target failed, 2 usage error."})
public final class BenchMain {

    @Mixin
    HelpOption help;

    private BenchMain() {
    }

    /**
     * The sub-commands, in the order {@code bench --help} lists them. Adding one: a {@link BenchCommand}
     * class and its line here.
     */
    static List<BenchCommand> commands() {
        return List.of(
                new SweepCommand(),
                new CalibrateCommand(),
                new OverheadCommand(),
                new FuzzCommand(),
                new ServersCommand(),
                new ChaosCommand(),
                new SoakCommand(),
                new ScaleCommand());
    }

    public static void main(String[] args) {
        // Ctrl-C or SIGTERM mid-cell: stop the dispatcher and JMeter too (the nodes watch their stdin anyway)
        Runtime.getRuntime().addShutdownHook(new Thread(() -> ProcessHandle.current().descendants()
                .forEach(ProcessHandle::destroy), "stop-children"));
        System.exit(run(List.of(args), System.out, System.err));
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        CommandLine top = new CommandLine(new BenchMain());
        for (BenchCommand command : commands()) {
            top.addSubcommand(command);
        }
        top.addSubcommand(new HelpCommand());
        Cli.configure(top);
        return Cli.execute(top, args.toArray(String[]::new), out, err, chosen -> {
            if (chosen.getCommand() instanceof BenchCommand command) {
                return call(chosen, command, out, err);
            }
            out.print(chosen.getUsageMessage()); // "bench" alone
            return ExitCode.USAGE;
        });
    }

    /**
     * Runs {@code command}: an {@link IllegalArgumentException} (an option the sweep, a provisioner or a
     * scenario refuses) becomes a usage error naming it, anything else a failure with exit code 1.
     */
    private static int call(CommandLine chosen, BenchCommand command, PrintStream out, PrintStream err) {
        String name = chosen.getCommandSpec().qualifiedName();
        try {
            return command.call(out);
        } catch (IllegalArgumentException e) {
            throw e instanceof UsageException usage ? usage : new UsageException(e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println(name + ": interrupted");
            return ExitCode.FAILURE;
        } catch (IOException | RuntimeException e) {
            err.println(name + " failed: " + e);
            return ExitCode.FAILURE;
        }
    }
}
