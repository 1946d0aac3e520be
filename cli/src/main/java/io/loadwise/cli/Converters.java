package io.loadwise.cli;

import picocli.CommandLine;
import picocli.CommandLine.TypeConversionException;

/**
 * Number converters whose messages read the same in every command. picocli puts the option in front, and
 * {@link UsageErrors} turns that into {@code --threads needs an integer, got 'many'}.
 */
final class Converters {

    private Converters() {
    }

    static void register(CommandLine commandLine) {
        commandLine.registerConverter(Integer.class, Converters::integer);
        commandLine.registerConverter(int.class, Converters::integer);
        commandLine.registerConverter(Long.class, Converters::longInteger);
        commandLine.registerConverter(long.class, Converters::longInteger);
        commandLine.registerConverter(Double.class, Converters::number);
        commandLine.registerConverter(double.class, Converters::number);
    }

    static Integer integer(String text) {
        try {
            return Integer.valueOf(text.trim());
        } catch (NumberFormatException e) {
            throw new TypeConversionException("needs an integer, got '" + text + "'");
        }
    }

    static Long longInteger(String text) {
        try {
            return Long.valueOf(text.trim());
        } catch (NumberFormatException e) {
            throw new TypeConversionException("needs an integer, got '" + text + "'");
        }
    }

    static Double number(String text) {
        double value;
        try {
            value = Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            throw new TypeConversionException("needs a number, got '" + text + "'");
        }
        if (!Double.isFinite(value)) {
            // NaN and Infinity parse, but no option of ours means them
            throw new TypeConversionException("needs a number, got '" + text + "'");
        }
        return value;
    }
}
