package io.loadwise.dispatcher.cli;

import io.loadwise.cli.Cli;
import io.loadwise.cli.ExitCode;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.stream.Stream;
import picocli.CommandLine;

/**
 * The {@code loadwise} command line: {@code run}, {@code validate}, {@code completion}, {@code --help},
 * {@code --version}, and the commands other modules contribute ({@link CliCommand}). Parsing, help and
 * usage errors are picocli's, set up by {@link Cli}.
 */
public final class Main {

    public static final int OK = ExitCode.OK;
    public static final int INVALID = ExitCode.FAILURE;
    public static final int USAGE = ExitCode.USAGE;

    private final PrintStream out;
    private final PrintStream err;
    private final Map<String, String> env;

    Main(PrintStream out, PrintStream err, Map<String, String> env) {
        this.out = out;
        this.err = err;
        this.env = env;
    }

    public static void main(String[] args) {
        NettyDefaults.apply();
        int code = new Main(System.out, System.err, System.getenv()).execute(args);
        System.exit(code);
    }

    /** Runs one command and returns the process exit code; {@code run} returns only after shutdown. */
    int execute(String[] args) {
        return execute(LoadwiseCommand.tree(ServiceLoader.load(CliCommand.class)), args);
    }

    /**
     * The whole command tree of this process ({@code loadwise --help}), with the commands found through
     * ServiceLoader, configured as {@link #main} uses it; for tests that parse documented command lines.
     */
    public static CommandLine commandTree() {
        return LoadwiseCommand.tree(ServiceLoader.load(CliCommand.class));
    }

    /**
     * Runs {@code command} as {@code loadwise NAME ARGS} would, with the same parsing, help and errors: for
     * the tests of the modules that contribute commands, which need an instance of their own.
     */
    public static int runCommand(CliCommand command, String[] args, PrintStream out, PrintStream err,
            Map<String, String> env) {
        CommandLine top = LoadwiseCommand.tree(List.of(command));
        String name = top.getSubcommands().values().stream().filter(c -> c.getCommand() == command).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(command.getClass() + " has a built-in command's name"))
                .getCommandName();
        return new Main(out, err, env).execute(top, Stream.concat(Stream.of(name), Stream.of(args)).toArray(String[]::new));
    }

    private int execute(CommandLine top, String[] args) {
        return Cli.execute(top, args, out, err, chosen -> {
            if (chosen.getCommand() instanceof CliCommand command) {
                return command.run(out, err, env);
            }
            out.print(chosen.getUsageMessage()); // "loadwise" alone
            return USAGE;
        });
    }

    static String version() {
        try (InputStream in = Main.class.getResourceAsStream("/io/loadwise/dispatcher/version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
