package io.loadwise.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code --name value} and {@code --flag} options of one sub-command; unknown names are errors. */
final class Options {

    private final Map<String, String> values = new HashMap<>();

    private Options() {
    }

    static Options parse(List<String> args, Set<String> valued, Set<String> flags) {
        Options options = new Options();
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String name = arg.startsWith("--") ? arg.substring(2) : null;
            String inline = null;
            if (name != null && name.contains("=")) {
                inline = name.substring(name.indexOf('=') + 1);
                name = name.substring(0, name.indexOf('='));
            }
            if (name == null) {
                problems.add("unexpected argument '" + arg + "'");
            } else if (flags.contains(name) && inline == null) {
                options.values.put(name, "true");
            } else if (valued.contains(name)) {
                String value = inline != null ? inline
                        : i + 1 < args.size() && !args.get(i + 1).startsWith("--") ? args.get(++i) : null;
                if (value == null) {
                    problems.add("--" + name + " needs a value");
                } else {
                    options.values.put(name, value);
                }
            } else {
                problems.add("unknown option --" + name);
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        return options;
    }

    boolean flag(String name) {
        return values.containsKey(name);
    }

    String get(String name, String fallback) {
        return values.getOrDefault(name, fallback);
    }

    int intValue(String name, int fallback) {
        String v = values.get(name);
        try {
            return v == null ? fallback : Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + ": '" + v + "' is not an integer");
        }
    }

    double doubleValue(String name, double fallback) {
        String v = values.get(name);
        try {
            return v == null ? fallback : Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + ": '" + v + "' is not a number");
        }
    }
}
