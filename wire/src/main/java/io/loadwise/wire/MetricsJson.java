package io.loadwise.wire;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Codec for the agent's pull endpoint document:
 *
 * <pre>{@code
 * {"timestamp":1763769600000,"metrics":{"OS_CPU_USED%":23.5,"AMX_SESSIONS_ACT":12},"sources":{"os":"sigar"}}
 * }</pre>
 *
 * Parsing ignores unknown top-level members (newer agents may add some) but is strict about syntax and
 * types: {@code timestamp} must be a non-negative integer, every metric a finite number.
 */
public final class MetricsJson {

    /** Documents larger than this are rejected before parsing; a full sample is about 3 KiB. */
    static final int MAX_LENGTH = 1 << 20;

    private MetricsJson() {
    }

    /** Encodes a document. Non-finite metric values are left out (JSON has no NaN). */
    public static String encode(long timestampMillis, Map<String, Double> metrics, Map<String, String> sources) {
        StringBuilder out = new StringBuilder(64 + metrics.size() * 32);
        out.append("{\"timestamp\":").append(timestampMillis).append(",\"metrics\":{");
        boolean first = true;
        for (Map.Entry<String, Double> e : metrics.entrySet()) {
            Double v = e.getValue();
            if (v == null || !Double.isFinite(v)) {
                continue;
            }
            if (!first) {
                out.append(',');
            }
            first = false;
            JsonWriter.appendString(out, e.getKey());
            out.append(':');
            WireNumbers.append(out, v);
        }
        out.append("},\"sources\":{");
        first = true;
        for (Map.Entry<String, String> e : sources.entrySet()) {
            if (!first) {
                out.append(',');
            }
            first = false;
            JsonWriter.appendString(out, e.getKey());
            out.append(':');
            JsonWriter.appendString(out, e.getValue());
        }
        return out.append("}}").toString();
    }

    /**
     * Parses a document.
     *
     * @throws MalformedLoadReportException on invalid JSON, a missing or non-integer {@code timestamp}, a
     *     missing {@code metrics} object, a non-numeric metric, or a non-string source
     */
    public static AgentMetricsDocument parse(String json) throws MalformedLoadReportException {
        if (json != null && json.length() > MAX_LENGTH) {
            throw new MalformedLoadReportException("Metrics document is " + json.length()
                    + " characters long, limit is " + MAX_LENGTH);
        }
        Object root = JsonReader.parse(json);
        if (!(root instanceof Map)) {
            throw new MalformedLoadReportException("Metrics document must be a JSON object");
        }
        Map<?, ?> doc = (Map<?, ?>) root;
        Object ts = doc.get("timestamp");
        if (!(ts instanceof Double)) {
            throw new MalformedLoadReportException("Metrics document needs a numeric \"timestamp\" (epoch ms)");
        }
        double t = (Double) ts;
        if (t < 0 || t != Math.rint(t) || t > 9.007199254740992e15) {
            throw new MalformedLoadReportException("Metrics document \"timestamp\" must be a non-negative "
                    + "integer (epoch ms), got " + t);
        }
        Object metricsNode = doc.get("metrics");
        if (!(metricsNode instanceof Map)) {
            throw new MalformedLoadReportException("Metrics document needs a \"metrics\" object");
        }
        Map<String, Double> metrics = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) metricsNode).entrySet()) {
            if (!(e.getValue() instanceof Double)) {
                throw new MalformedLoadReportException("Metric \"" + e.getKey() + "\" must be a number, got "
                        + (e.getValue() == null ? "null" : e.getValue().getClass().getSimpleName()));
            }
            metrics.put((String) e.getKey(), (Double) e.getValue());
        }
        Map<String, String> sources = new LinkedHashMap<>();
        Object sourcesNode = doc.get("sources");
        if (sourcesNode != null) {
            if (!(sourcesNode instanceof Map)) {
                throw new MalformedLoadReportException("Metrics document \"sources\" must be an object");
            }
            for (Map.Entry<?, ?> e : ((Map<?, ?>) sourcesNode).entrySet()) {
                if (!(e.getValue() instanceof String)) {
                    throw new MalformedLoadReportException("Source \"" + e.getKey() + "\" must be a string");
                }
                sources.put((String) e.getKey(), (String) e.getValue());
            }
        }
        return new AgentMetricsDocument((long) t, metrics, sources);
    }
}
