package io.loadwise.sim.cli;

import io.loadwise.cli.UsageException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The number lists {@code simulate} and {@code capacity} take, e.g. {@code --rate 250..1250:250}: {@code 5},
 * {@code 100,150,200}, {@code 100..200} (step 1) or {@code 100..200:25}, forms mixed with commas. Every
 * mistake is a {@link UsageException} naming the option.
 */
final class NumberLists {

    /** More points than any plot or table can use: a typo such as {@code 1..1e9}. */
    static final int MAX_POINTS = 100_000;

    private NumberLists() {
    }

    /** The numbers of {@code text}; empty when the option was not given ({@code text} null). */
    static List<Double> doubles(String option, String text) {
        List<Double> out = new ArrayList<>();
        if (text == null) {
            return out;
        }
        for (String part : text.split(",")) {
            part = part.trim();
            int dots = part.indexOf("..");
            if (dots < 0) {
                out.add(number(option, part));
                continue;
            }
            String rest = part.substring(dots + 2);
            int colon = rest.indexOf(':');
            double from = number(option, part.substring(0, dots));
            double to = number(option, colon < 0 ? rest : rest.substring(0, colon));
            double step = colon < 0 ? 1 : number(option, rest.substring(colon + 1));
            if (!(step > 0) || to < from) {
                throw new UsageException(option + ": range " + part + " needs FROM <= TO and a positive step");
            }
            int count = (int) Math.floor((to - from) / step + 1e-9) + 1;
            if (count > MAX_POINTS) {
                throw new UsageException(option + ": range " + part + " has " + count + " points, at most " + MAX_POINTS);
            }
            for (int i = 0; i < count; i++) {
                out.add(from + i * step);
            }
        }
        return out;
    }

    /** {@link #doubles}, each a whole number. */
    static List<Integer> ints(String option, String text) {
        List<Integer> out = new ArrayList<>();
        for (double d : doubles(option, text)) {
            if (d != Math.rint(d)) {
                throw new UsageException(option + ": " + d + " is not a whole number");
            }
            out.add((int) d);
        }
        return out;
    }

    /** {@code value}, refused unless it is positive and finite. */
    static double positive(String option, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new UsageException(option + ": must be a positive number, got " + plain(value));
        }
        return value;
    }

    /** {@code -3}, not {@code -3.0}: the number as the user probably typed it. */
    private static String plain(double value) {
        return Double.isFinite(value) ? BigDecimal.valueOf(value).stripTrailingZeros().toPlainString() : "" + value;
    }

    private static double number(String option, String text) {
        try {
            double v = Double.parseDouble(text.trim());
            if (Double.isNaN(v)) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new UsageException(option + ": '" + text + "' is not a number");
        }
    }
}
