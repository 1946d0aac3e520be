package io.loadwise.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.UsageMessageSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * picocli the way every Loadwise program uses it. {@link #configure} sets the help layout and the parser
 * once for a whole command tree; {@link #execute} parses, answers {@code --help}, {@code --version} and
 * {@code help [COMMAND]}, runs the chosen command and turns a bad command line into one line on stderr:
 *
 * <pre>loadwise run: unknown option '--confg'; see loadwise run --help</pre>
 *
 * with exit code {@link ExitCode#USAGE}. Output goes to the {@link PrintStream}s given, never to
 * picocli's own writers, so that tests see exactly what a terminal sees.
 */
public final class Cli {

    /** Columns of the help text; fixed, so that the help is the same on every terminal and in a pipe. */
    static final int HELP_WIDTH = 100;
    /** Room for an option and its label before the description moves to the next line. */
    static final int LONG_OPTIONS_WIDTH = 30;

    private Cli() {
    }

    /** The chosen command's work; returns the exit code. May throw {@link UsageException}. */
    @FunctionalInterface
    public interface Body {
        int run(CommandLine chosen);
    }

    /**
     * Applies the Loadwise settings to {@code top} and every sub-command it has now: call it once the tree is
     * complete (picocli copies settings only to the sub-commands that exist at the time).
     */
    public static CommandLine configure(CommandLine top) {
        top.setColorScheme(Help.defaultColorScheme(Help.Ansi.OFF)); // the same bytes in a terminal and a test
        top.setUsageHelpWidth(HELP_WIDTH);
        top.setUsageHelpLongOptionsMaxWidth(LONG_OPTIONS_WIDTH);
        top.setOverwrittenOptionsAllowed(true); // the last value wins, as it did with the hand-written parsers
        top.setExpandAtFiles(false); // an argument starting with @ is an argument, not a file of arguments
        Converters.register(top);
        layoutAndErrors(top);
        return top;
    }

    private static void layoutAndErrors(CommandLine command) {
        CommandSpec spec = command.getCommandSpec();
        // collect errors instead of throwing the first: an unknown option is then reported before a
        // required option that seems to be missing because of it (a misspelt --confg)
        spec.parser().collectErrors(true);
        UsageMessageSpec usage = spec.usageMessage();
        usage.sortOptions(false); // in the order the command declares them, as the help always listed them
        usage.sortSynopsis(false);
        if (usage.description().length > 0) {
            usage.descriptionHeading("%n");
        }
        usage.optionListHeading("%nOptions:%n");
        usage.commandListHeading("%nCommands:%n");
        if (usage.footer().length > 0) {
            usage.footerHeading("%n");
        }
        if (!command.getSubcommands().isEmpty()) {
            usage.sectionKeys(commandsBeforeOptions(usage.sectionKeys()));
        }
        for (CommandLine sub : command.getSubcommands().values()) {
            layoutAndErrors(sub);
        }
    }

    /** A program's help lists what it can do before how to tune it: its commands come before its options. */
    private static List<String> commandsBeforeOptions(List<String> keys) {
        List<String> commands = List.of(UsageMessageSpec.SECTION_KEY_COMMAND_LIST_HEADING,
                UsageMessageSpec.SECTION_KEY_COMMAND_LIST);
        List<String> reordered = new ArrayList<>(keys);
        reordered.removeAll(commands);
        int options = reordered.indexOf(UsageMessageSpec.SECTION_KEY_OPTION_LIST_HEADING);
        reordered.addAll(options < 0 ? reordered.size() : options, commands);
        return reordered;
    }

    /** Parses {@code args} against {@code top} (configured), and runs what they ask for; returns the exit code. */
    public static int execute(CommandLine top, String[] args, PrintStream out, PrintStream err, Body body) {
        ParseResult parsed = top.parseArgs(args);
        List<CommandLine> chain = parsed.asCommandLineList();
        for (ParseResult level = parsed; level != null; level = level.subcommand()) {
            // help wins over errors, as in picocli: "run --help --confg" shows run's help
            if (level.isUsageHelpRequested()) {
                out.print(level.commandSpec().commandLine().getUsageMessage());
                return ExitCode.OK;
            }
            if (level.isVersionHelpRequested()) {
                level.commandSpec().commandLine().printVersionHelp(out);
                return ExitCode.OK;
            }
        }
        ParameterException error = firstError(parsed);
        if (error != null) {
            CommandLine where = error.getCommandLine() != null ? error.getCommandLine() : chain.get(chain.size() - 1);
            return usageError(where, UsageErrors.message(error), err);
        }
        CommandLine chosen = chain.get(chain.size() - 1);
        if (chosen.getCommand() instanceof HelpCommand help) {
            return help(chosen, help.command, out, err);
        }
        try {
            return body.run(chosen);
        } catch (ParameterException e) {
            return usageError(e.getCommandLine() != null ? e.getCommandLine() : chosen, UsageErrors.message(e), err);
        } catch (UsageException e) {
            return usageError(chosen, e.getMessage(), err);
        }
    }

    /**
     * Parses {@code args} into the command objects of {@code top} (configured) without running anything, for
     * a program that only needs the values.
     *
     * @throws UsageException with the message {@link #execute} would print, when the command line is bad
     */
    public static ParseResult parse(CommandLine top, String... args) {
        ParseResult parsed = top.parseArgs(args);
        ParameterException error = firstError(parsed);
        if (error != null) {
            throw new UsageException(UsageErrors.message(error));
        }
        return parsed;
    }

    /**
     * The error to report: an unmatched argument first (it explains the others, e.g. a required option that
     * was misspelt), otherwise the first in command-line order. Except when an option lacks its value and
     * the unmatched argument is a value: picocli then skips the option that follows, whose value is left
     * over, so {@code --threads --root DIR} is "--threads needs a value", not "unexpected argument 'DIR'".
     */
    private static ParameterException firstError(ParseResult parsed) {
        List<Exception> errors = new ArrayList<>();
        for (ParseResult level = parsed; level != null; level = level.subcommand()) {
            for (Exception e : level.errors()) {
                if (!errors.contains(e)) {
                    errors.add(e);
                }
            }
        }
        ParameterException first = null;
        CommandLine.UnmatchedArgumentException unmatched = null;
        ParameterException valueMissing = null;
        for (Exception e : errors) {
            ParameterException pe = e instanceof ParameterException p ? p
                    : new ParameterException(parsed.commandSpec().commandLine(), String.valueOf(e.getMessage()), e);
            if (pe instanceof CommandLine.UnmatchedArgumentException u && unmatched == null) {
                unmatched = u;
            }
            if (valueMissing == null && UsageErrors.isValueMissing(pe)) {
                valueMissing = pe;
            }
            if (first == null) {
                first = pe;
            }
        }
        if (unmatched == null) {
            return first;
        }
        boolean leftOverValue = !unmatched.getUnmatched().isEmpty() && !unmatched.getUnmatched().get(0).startsWith("-");
        return valueMissing != null && leftOverValue ? valueMissing : unmatched;
    }

    private static int help(CommandLine helpCommand, String name, PrintStream out, PrintStream err) {
        CommandLine parent = helpCommand.getParent();
        if (name == null) {
            out.print(parent.getUsageMessage());
            return ExitCode.OK;
        }
        CommandLine sub = parent.getSubcommands().get(name);
        if (sub == null) {
            return usageError(parent, "unknown command '" + name + "'", err);
        }
        out.print(sub.getUsageMessage());
        return ExitCode.OK;
    }

    /** Prints {@code NAME: MESSAGE; see NAME --help} and returns {@link ExitCode#USAGE}. */
    public static int usageError(CommandLine where, String message, PrintStream err) {
        String name = where.getCommandSpec().qualifiedName();
        err.println(name + ": " + message + "; see " + name + " --help");
        return ExitCode.USAGE;
    }
}
