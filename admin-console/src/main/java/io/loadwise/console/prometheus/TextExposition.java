package io.loadwise.console.prometheus;

import io.loadwise.dispatcher.metrics.LatencyHistogram;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a document in the Prometheus text exposition format 0.0.4: families (HELP, TYPE, samples) in
 * the order they were first declared, every sample of a family together, label values escaped.
 */
final class TextExposition {

    /** The {@code Content-Type} of the format. */
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    /** The {@code Content-Type} of OpenMetrics 1.0, {@link #render(boolean)} with {@code true}. */
    static final String OPENMETRICS_CONTENT_TYPE = "application/openmetrics-text; version=1.0.0; charset=utf-8";

    enum Type {
        COUNTER, GAUGE, HISTOGRAM;

        String text() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private record Family(String help, Type type, List<Sample> samples) {
    }

    /** A sample's line, and the exemplar OpenMetrics appends to it ({@code null}: none; 0.0.4 has no exemplars). */
    private record Sample(String line, String exemplar) {
    }

    private static final java.util.regex.Pattern HEX_ID = java.util.regex.Pattern.compile("[0-9a-f]{16,32}");

    private final Map<String, Family> families = new LinkedHashMap<>();
    /** Labels every sample carries first (the {@code replica} of a shared store), name, value, …; may be empty. */
    private final String[] common;

    TextExposition(String... common) {
        this.common = common;
    }

    /** Declares a family; samples are added with {@link #sample}. Declaring it again is harmless. */
    void family(String name, Type type, String help) {
        families.computeIfAbsent(name, n -> new Family(help, type, new ArrayList<>()));
    }

    /**
     * Adds a sample of a declared family.
     *
     * @param labels name, value, name, value …
     */
    void sample(String name, double value, String... labels) {
        add(name, name, value, labels);
    }

    /**
     * Adds a histogram of a declared {@link Type#HISTOGRAM} family: {@code _bucket} samples with their
     * {@code le} bounds (cumulative, ending with {@code +Inf}), {@code _sum} and {@code _count}.
     *
     * @param bounds the upper bounds, without {@code +Inf}; {@code cumulative} has one count more
     */
    void histogram(String name, double[] bounds, long[] cumulative, double sum, String... labels) {
        histogram(name, bounds, cumulative, new LatencyHistogram.Exemplar[cumulative.length], sum, labels);
    }

    /**
     * {@link #histogram(String, double[], long[], double, String...)} with, per bucket, its last traced observation
     * ({@code null} entries for none): written in OpenMetrics as the bucket's exemplar,
     * {@code # {trace_id="…",span_id="…"} value timestamp}, and left out of the 0.0.4 format.
     */
    void histogram(String name, double[] bounds, long[] cumulative, LatencyHistogram.Exemplar[] exemplars, double sum,
            String... labels) {
        String[] withLe = java.util.Arrays.copyOf(labels, labels.length + 2);
        withLe[labels.length] = "le";
        for (int i = 0; i <= bounds.length; i++) {
            withLe[labels.length + 1] = i < bounds.length
                    ? java.math.BigDecimal.valueOf(bounds[i]).stripTrailingZeros().toPlainString() : "+Inf";
            add(name, name + "_bucket", cumulative[i], exemplar(exemplars[i]), withLe);
        }
        add(name, name + "_sum", sum, labels);
        add(name, name + "_count", cumulative[bounds.length], labels);
    }

    private void add(String familyName, String name, double value, String... labels) {
        add(familyName, name, value, null, labels);
    }

    private static String exemplar(LatencyHistogram.Exemplar e) {
        if (e == null || !HEX_ID.matcher(e.traceId()).matches() || !HEX_ID.matcher(e.spanId()).matches()) {
            return null; // ids come from the tracer, but a label value here is never written unchecked
        }
        return " # {trace_id=\"" + e.traceId() + "\",span_id=\"" + e.spanId() + "\"} " + number(e.seconds()) + " "
                + java.math.BigDecimal.valueOf(e.epochMillis(), 3).toPlainString();
    }

    private void add(String familyName, String name, double value, String exemplar, String... labels) {
        Family family = families.get(familyName);
        if (family == null) {
            throw new IllegalArgumentException("family " + familyName + " not declared");
        }
        StringBuilder line = new StringBuilder(name);
        if (common.length > 0) {
            String[] all = new String[common.length + labels.length];
            System.arraycopy(common, 0, all, 0, common.length);
            System.arraycopy(labels, 0, all, common.length, labels.length);
            labels = all;
        }
        if (labels.length > 0) {
            line.append('{');
            for (int i = 0; i < labels.length; i += 2) {
                if (i > 0) {
                    line.append(',');
                }
                line.append(labels[i]).append("=\"").append(escapeLabel(labels[i + 1])).append('"');
            }
            line.append('}');
        }
        line.append(' ').append(number(value));
        family.samples().add(new Sample(line.toString(), exemplar));
    }

    /** The declared families, in declaration order. */
    java.util.Set<String> familyNames() {
        return java.util.Collections.unmodifiableSet(families.keySet());
    }

    /** The document in the text format 0.0.4; families without samples are left out. */
    String render() {
        return render(false);
    }

    /**
     * The document; families without samples are left out. In OpenMetrics 1.0 a counter's family is named
     * without its {@code _total} suffix, which its samples keep, and the document ends with {@code # EOF};
     * the samples themselves are written alike in both formats.
     */
    String render(boolean openMetrics) {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, Family> e : families.entrySet()) {
            Family family = e.getValue();
            if (family.samples().isEmpty()) {
                continue;
            }
            String name = e.getKey();
            if (openMetrics && family.type() == Type.COUNTER && name.endsWith("_total")) {
                name = name.substring(0, name.length() - "_total".length());
            }
            out.append("# HELP ").append(name).append(' ').append(escapeHelp(family.help())).append('\n');
            out.append("# TYPE ").append(name).append(' ').append(family.type().text()).append('\n');
            for (Sample sample : family.samples()) {
                out.append(sample.line());
                if (openMetrics && sample.exemplar() != null) {
                    out.append(sample.exemplar());
                }
                out.append('\n');
            }
        }
        if (openMetrics) {
            out.append("# EOF\n");
        }
        return out.toString();
    }

    static String number(double value) {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "+Inf" : "-Inf";
        }
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return Double.toString(value);
    }

    private static String escapeLabel(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    private static String escapeHelp(String help) {
        return help.replace("\\", "\\\\").replace("\n", "\\n");
    }
}
