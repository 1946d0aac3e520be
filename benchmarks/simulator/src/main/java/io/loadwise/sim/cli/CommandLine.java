package io.loadwise.sim.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small GNU-style option parser shared by {@code simulate} and {@code capacity}: {@code --name value},
 * {@code --name=value}, flags, repeatable options, numbers, lists and ranges, each with a specific
 * error naming the option.
 */
public final class CommandLine {

    /** The options a command accepts, in the order {@link #usage} lists them. */
    public static final class Spec {
        private final Map<String, String[]> options = new LinkedHashMap<>();

        /** An option taking a value; {@code help} may span lines with \n. */
        public Spec option(String name, String valueName, String help) {
            options.put(name, new String[] {valueName, help});
            return this;
        }

        public Spec flag(String name, String help) {
            options.put(name, new String[] {null, help});
            return this;
        }

        public String usage() {
            StringBuilder sb = new StringBuilder();
            for (Map.Entry<String, String[]> e : options.entrySet()) {
                String head = "  --" + e.getKey() + (e.getValue()[0] == null ? "" : " " + e.getValue()[0]);
                sb.append(head).append('\n');
                for (String line : e.getValue()[1].split("\n")) {
                    sb.append("        ").append(line).append('\n');
                }
            }
            return sb.toString();
        }
    }

    private final Map<String, List<String>> values = new LinkedHashMap<>();

    private CommandLine() {
    }

    public static CommandLine parse(Spec spec, String[] args) {
        CommandLine cl = new CommandLine();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--") || arg.length() == 2) {
                throw new UsageException("unexpected argument '" + arg + "' (options start with --; see --help)");
            }
            String name = arg.substring(2);
            String value = null;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            String[] def = spec.options.get(name);
            if (def == null) {
                throw new UsageException("unknown option --" + name + " (see --help)");
            }
            boolean takesValue = def[0] != null;
            if (!takesValue && value != null) {
                throw new UsageException("--" + name + " takes no value");
            }
            if (takesValue && value == null) {
                if (i + 1 >= args.length || args[i + 1].startsWith("--")) {
                    throw new UsageException("--" + name + " needs a value: " + def[0]);
                }
                value = args[++i];
            }
            cl.values.computeIfAbsent(name, k -> new ArrayList<>()).add(value == null ? "" : value);
        }
        return cl;
    }

    public boolean has(String name) {
        return values.containsKey(name);
    }

    /** The last value given, or {@code defaultValue}. */
    public String get(String name, String defaultValue) {
        List<String> v = values.get(name);
        return v == null ? defaultValue : v.get(v.size() - 1);
    }

    public List<String> all(String name) {
        return values.getOrDefault(name, List.of());
    }

    public double getDouble(String name, double defaultValue) {
        return has(name) ? number(name, get(name, null)) : defaultValue;
    }

    public long getLong(String name, long defaultValue) {
        if (!has(name)) {
            return defaultValue;
        }
        String v = get(name, null);
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + ": '" + v + "' is not a whole number");
        }
    }

    public int getInt(String name, int defaultValue) {
        long v = getLong(name, defaultValue);
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new UsageException("--" + name + ": " + v + " is out of range");
        }
        return (int) v;
    }

    /** Positive value or the default; the message names the option. */
    public double getPositive(String name, double defaultValue) {
        double v = getDouble(name, defaultValue);
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new UsageException("--" + name + ": must be a positive number, got " + get(name, "" + v));
        }
        return v;
    }

    /**
     * A list of numbers: {@code 5}, {@code 100,150,200}, {@code 100..200} (step 1) or
     * {@code 100..200:25}; forms can be mixed with commas.
     */
    public List<Double> getDoubles(String name) {
        List<Double> out = new ArrayList<>();
        String text = get(name, null);
        if (text == null) {
            return out;
        }
        for (String part : text.split(",")) {
            part = part.trim();
            int dots = part.indexOf("..");
            if (dots < 0) {
                out.add(number(name, part));
                continue;
            }
            String rest = part.substring(dots + 2);
            int colon = rest.indexOf(':');
            double from = number(name, part.substring(0, dots));
            double to = number(name, colon < 0 ? rest : rest.substring(0, colon));
            double step = colon < 0 ? 1 : number(name, rest.substring(colon + 1));
            if (!(step > 0) || to < from) {
                throw new UsageException("--" + name + ": range " + part + " needs FROM <= TO and a positive step");
            }
            int count = (int) Math.floor((to - from) / step + 1e-9) + 1;
            if (count > 100_000) {
                throw new UsageException("--" + name + ": range " + part + " has " + count + " points, at most 100000");
            }
            for (int i = 0; i < count; i++) {
                out.add(from + i * step);
            }
        }
        return out;
    }

    public List<Integer> getInts(String name) {
        List<Integer> out = new ArrayList<>();
        for (double d : getDoubles(name)) {
            if (d != Math.rint(d)) {
                throw new UsageException("--" + name + ": " + d + " is not a whole number");
            }
            out.add((int) d);
        }
        return out;
    }

    private static double number(String name, String text) {
        try {
            double v = Double.parseDouble(text.trim());
            if (Double.isNaN(v)) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + ": '" + text + "' is not a number");
        }
    }
}
