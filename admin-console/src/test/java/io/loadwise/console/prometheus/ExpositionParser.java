package io.loadwise.console.prometheus;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict reader of the Prometheus text format 0.0.4 for tests: every sample must belong to a family
 * whose HELP and TYPE came first, a family's samples must be contiguous, names and labels must be
 * well-formed and values must be numbers (or NaN, +Inf, -Inf). Throws {@link IllegalArgumentException}
 * naming the line otherwise.
 */
public final class ExpositionParser {

    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern SAMPLE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)\\})? (\\S+)");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"(,|$)");

    public record Sample(String name, Map<String, String> labels, double value) {
    }

    public final Map<String, String> types = new HashMap<>();
    public final Map<String, String> helps = new HashMap<>();
    public final List<Sample> samples = new ArrayList<>();

    public static ExpositionParser parse(String text) {
        ExpositionParser out = new ExpositionParser();
        Set<String> finished = new HashSet<>();
        String current = null;
        int lineNo = 0;
        for (String line : text.split("\n", -1)) {
            lineNo++;
            if (line.isEmpty()) {
                continue;
            }
            String at = "line " + lineNo + " '" + line + "': ";
            if (line.startsWith("# HELP ")) {
                String[] parts = line.substring(7).split(" ", 2);
                check(NAME.matcher(parts[0]).matches() && parts.length == 2, at + "bad HELP");
                check(!finished.contains(parts[0]) && !parts[0].equals(current), at + "family declared twice");
                if (current != null) {
                    finished.add(current);
                }
                current = parts[0];
                out.helps.put(parts[0], parts[1]);
            } else if (line.startsWith("# TYPE ")) {
                String[] parts = line.substring(7).split(" ");
                check(parts.length == 2 && parts[0].equals(current), at + "TYPE must follow the family's HELP");
                check(Set.of("counter", "gauge", "summary", "histogram", "untyped").contains(parts[1]), at + "bad type");
                out.types.put(parts[0], parts[1]);
            } else if (line.startsWith("#")) {
                continue;
            } else {
                Matcher m = SAMPLE.matcher(line);
                check(m.matches(), at + "not a sample");
                String name = m.group(1);
                boolean histogramPart = current != null && "histogram".equals(out.types.get(current))
                        && (name.equals(current + "_bucket") || name.equals(current + "_sum")
                                || name.equals(current + "_count"));
                check(histogramPart || name.equals(current) && out.types.containsKey(name) && !"histogram".equals(
                        out.types.get(name)), at + "sample outside its family");
                Map<String, String> labels = new LinkedHashMap<>();
                if (m.group(2) != null) {
                    Matcher l = LABEL.matcher(m.group(2));
                    int end = 0;
                    while (l.lookingAt()) {
                        labels.put(l.group(1), unescape(l.group(2)));
                        end = l.end();
                        l.region(end, m.group(2).length());
                    }
                    check(end == m.group(2).length(), at + "malformed labels");
                }
                out.samples.add(new Sample(name, labels, value(m.group(3), at)));
            }
        }
        out.checkHistograms();
        return out;
    }

    /**
     * Every histogram series: buckets in increasing {@code le} order, cumulative (never falling), ending with
     * {@code +Inf}, whose count equals {@code _count}; a {@code _sum} beside it.
     */
    private void checkHistograms() {
        for (Map.Entry<String, String> family : types.entrySet()) {
            if (!family.getValue().equals("histogram")) {
                continue;
            }
            String name = family.getKey();
            for (Sample count : all(name + "_count")) {
                List<Sample> buckets = samples.stream().filter(s -> s.name().equals(name + "_bucket")
                        && withoutLe(s.labels()).equals(count.labels())).toList();
                check(!buckets.isEmpty(), name + count.labels() + ": no buckets");
                double previousLe = Double.NEGATIVE_INFINITY;
                double previous = 0;
                for (Sample bucket : buckets) {
                    double le = value(bucket.labels().get("le"), name + " le ");
                    check(le > previousLe, name + count.labels() + ": le not increasing at " + le);
                    check(bucket.value() >= previous, name + count.labels() + ": bucket le=" + le + " falls");
                    previousLe = le;
                    previous = bucket.value();
                }
                check(previousLe == Double.POSITIVE_INFINITY, name + count.labels() + ": no +Inf bucket");
                check(previous == count.value(), name + count.labels() + ": +Inf bucket != _count");
                check(all(name + "_sum").stream().anyMatch(s -> s.labels().equals(count.labels())),
                        name + count.labels() + ": no _sum");
            }
        }
    }

    private static Map<String, String> withoutLe(Map<String, String> labels) {
        Map<String, String> copy = new LinkedHashMap<>(labels);
        copy.remove("le");
        return copy;
    }

    /** The value of the one sample with exactly these labels. */
    public double value(String name, Map<String, String> labels) {
        List<Sample> found = samples.stream().filter(s -> s.name().equals(name) && s.labels().equals(labels)).toList();
        check(found.size() == 1, found.size() + " samples of " + name + labels);
        return found.get(0).value();
    }

    public List<Sample> all(String name) {
        return samples.stream().filter(s -> s.name().equals(name)).toList();
    }

    private static double value(String text, String at) {
        switch (text) {
            case "NaN":
                return Double.NaN;
            case "+Inf":
                return Double.POSITIVE_INFINITY;
            case "-Inf":
                return Double.NEGATIVE_INFINITY;
            default:
                try {
                    return Double.parseDouble(text);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(at + "bad value");
                }
        }
    }

    private static String unescape(String value) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\' && i + 1 < value.length()) {
                char next = value.charAt(++i);
                out.append(next == 'n' ? '\n' : next);
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
