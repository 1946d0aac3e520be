package io.loadwise.cli;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * picocli's parse errors in the words every Loadwise command used before picocli: {@code unknown option
 * '--heap'}, {@code unknown command 'frobnicate'}, {@code --threads needs a value}, {@code --config FILE is
 * required}, {@code --threads needs an integer, got 'many'}. Anything else keeps picocli's message.
 */
final class UsageErrors {

    private UsageErrors() {
    }

    static String message(ParameterException e) {
        if (e instanceof UnmatchedArgumentException unmatched) {
            return unmatched(unmatched);
        }
        if (e instanceof MissingParameterException missing && !missing.getMissing().isEmpty()) {
            return missing(missing);
        }
        if (e.getCause() instanceof TypeConversionException conversion && e.getArgSpec() != null) {
            return name(e.getArgSpec()) + " " + conversion.getMessage();
        }
        return lowerFirst(String.valueOf(e.getMessage()));
    }

    private static String unmatched(UnmatchedArgumentException e) {
        List<String> args = e.getUnmatched();
        String arg = args.isEmpty() ? "" : args.get(0);
        if (arg.startsWith("-")) {
            return "unknown option '" + arg + "'";
        }
        CommandLine where = e.getCommandLine();
        if (where != null && !where.getSubcommands().isEmpty()) {
            return "unknown command '" + arg + "'";
        }
        return "unexpected argument '" + arg + "'";
    }

    /** An option given without its value (not a required option that was not given at all). */
    static boolean isValueMissing(ParameterException e) {
        // picocli says "... for option '--x' ..." when an option was given without its value, and
        // "Missing required option(s)/parameter(s): ..." when a required one was not given at all
        return e instanceof MissingParameterException missing && !missing.getMissing().isEmpty()
                && String.valueOf(e.getMessage()).contains("for option");
    }

    private static String missing(MissingParameterException e) {
        List<ArgSpec> missing = e.getMissing();
        if (isValueMissing(e)) {
            return name(missing.get(0)) + " needs a value";
        }
        String names = missing.stream().map(UsageErrors::nameWithLabel).collect(Collectors.joining(", "));
        return names + (missing.size() == 1 ? " is required" : " are required");
    }

    private static String name(ArgSpec arg) {
        return arg instanceof OptionSpec option ? option.longestName() : arg.paramLabel();
    }

    private static String nameWithLabel(ArgSpec arg) {
        if (arg instanceof OptionSpec option) {
            return option.arity().max() == 0 ? option.longestName() : option.longestName() + " " + option.paramLabel();
        }
        return arg.paramLabel();
    }

    private static String lowerFirst(String text) {
        return text.isEmpty() ? text : text.substring(0, 1).toLowerCase(Locale.ROOT) + text.substring(1);
    }
}
