package io.loadwise.dispatcher.cli;

import java.io.PrintStream;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * A command that another program runs: {@code demo}, {@code bench}, {@code simulate} and {@code capacity}
 * are started by the {@code ./loadwise} script from their own jars, {@code passwd} comes with the admin
 * console. Listed in {@code loadwise --help} (and completed) like the others; run from this jar it says
 * where the command lives and exits with a usage error.
 */
final class LauncherCommand implements CliCommand {

    private final String name;
    private final String where;

    private LauncherCommand(String name, String where) {
        this.name = name;
        this.where = where;
    }

    /** The placeholder {@code name}, whose line in the command list is {@code summary}. */
    static CommandLine of(String name, String summary, String where) {
        CommandSpec spec = CommandSpec.wrapWithoutInspection(new LauncherCommand(name, where));
        spec.name(name);
        spec.usageMessage().description(summary, Character.toUpperCase(where.charAt(0)) + where.substring(1) + ".");
        spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).description("Show this help and exit.").build());
        // whatever follows is the other program's business: take it as is instead of failing on its options
        spec.addPositional(PositionalParamSpec.builder().arity("0..*").paramLabel("ARGS").type(String[].class)
                .hidden(true).build());
        spec.parser().unmatchedOptionsArePositionalParams(true);
        return new CommandLine(spec);
    }

    @Override
    public int run(PrintStream out, PrintStream err, Map<String, String> env) {
        err.println("loadwise: '" + name + "' is not run by this jar; " + where);
        return Main.USAGE;
    }
}
