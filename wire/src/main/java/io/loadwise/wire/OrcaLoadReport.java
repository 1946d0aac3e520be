package io.loadwise.wire;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Codec for the ORCA native load report header ({@value #HEADER_NAME}) that Envoy and gRPC read, mapped
 * to and from the seed's metric names.
 *
 * <p>On the wire, utilisations are fractions (CPU may exceed 1) and counts are plain numbers; in the maps
 * of this API they carry seed names, percentages 0-100 and plain counts, exactly like the JSON endpoint.
 * {@code application_utilization} has no seed name and maps to {@value #APP_UTILIZATION}.
 *
 * <pre>{@code
 * endpoint-load-metrics: TEXT cpu_utilization=0.23,mem_utilization=0.41,application_utilization=0.55,
 *     named_metrics.os_cpu_iowait=0.01,named_metrics.jvm_heap_used=0.45,...
 * }</pre>
 *
 * Both functions are pure and thread-safe. {@link #parse} accepts the TEXT form with {@code =} or {@code :}
 * separators and the JSON form; unknown keys are kept under their ORCA key with their value as sent, so
 * nothing is silently lost.
 */
public final class OrcaLoadReport {

    /** The response header carrying the report. */
    public static final String HEADER_NAME = "endpoint-load-metrics";

    /** Seed-style name given to ORCA's {@code application_utilization} (0-100). */
    public static final String APP_UTILIZATION = "APP_UTILIZATION%";

    /** The seed metrics the header carries (all but {@value #APP_UTILIZATION}, which is derived). */
    public static final java.util.Set<String> CARRIED_METRICS = java.util.Set.of(
            SeedMetric.OS_CPU_USED_PCT.seedName(), SeedMetric.OS_MEM_USED_PCT.seedName(),
            SeedMetric.OS_CPU_IOWAIT_PCT.seedName(), SeedMetric.JVM_HEAP_USED_PCT.seedName(),
            SeedMetric.AMX_CONNS_Q_USED_PCT.seedName(), SeedMetric.AMX_CONNS_Q_THRBSY_PCT.seedName(),
            SeedMetric.AMX_JDBC_ACTC_PCT.seedName(), SeedMetric.AMX_SESSIONS_ACT.seedName());

    /** Reports longer than this are rejected before parsing (Envoy's own limit is 8 KiB of headers). */
    static final int MAX_LENGTH = 8192;

    private static final String[] ORCA_KEYS = {
        "cpu_utilization", "mem_utilization", "application_utilization",
        "named_metrics.os_cpu_iowait", "named_metrics.jvm_heap_used", "named_metrics.http_queue_used",
        "named_metrics.http_threads_busy", "named_metrics.jdbc_active", "named_metrics.http_sessions_active",
    };
    private static final String[] SEED_NAMES = {
        SeedMetric.OS_CPU_USED_PCT.seedName(), SeedMetric.OS_MEM_USED_PCT.seedName(), APP_UTILIZATION,
        SeedMetric.OS_CPU_IOWAIT_PCT.seedName(), SeedMetric.JVM_HEAP_USED_PCT.seedName(),
        SeedMetric.AMX_CONNS_Q_USED_PCT.seedName(), SeedMetric.AMX_CONNS_Q_THRBSY_PCT.seedName(),
        SeedMetric.AMX_JDBC_ACTC_PCT.seedName(), SeedMetric.AMX_SESSIONS_ACT.seedName(),
    };
    /** Wire value times this factor gives the seed value: fractions become percentages, counts stay. */
    private static final double[] TO_SEED = {100, 100, 100, 100, 100, 100, 100, 100, 1};

    /** The seed percentages whose maximum is {@code application_utilization}. */
    private static final String[] APPLICATION_INPUTS = {
        SeedMetric.JVM_HEAP_USED_PCT.seedName(), SeedMetric.AMX_CONNS_Q_THRBSY_PCT.seedName(),
        SeedMetric.AMX_CONNS_Q_USED_PCT.seedName(), SeedMetric.AMX_JDBC_ACTC_PCT.seedName(),
    };

    private OrcaLoadReport() {
    }

    /**
     * Encodes the header value (without the header name) in TEXT form. Metrics that are absent or not
     * finite are left out; {@code application_utilization} is the largest of heap, thread, queue and JDBC
     * utilisation, and absent when none of them is known. An explicit {@value #APP_UTILIZATION} wins.
     */
    public static String encodeText(Map<String, Double> seedMetrics) {
        StringBuilder out = new StringBuilder(256).append("TEXT ");
        boolean first = true;
        for (int i = 0; i < ORCA_KEYS.length; i++) {
            double value = SEED_NAMES[i].equals(APP_UTILIZATION)
                    ? applicationUtilization(seedMetrics)
                    : finiteOrNaN(seedMetrics.get(SEED_NAMES[i]));
            if (Double.isNaN(value)) {
                continue;
            }
            if (!first) {
                out.append(',');
            }
            first = false;
            out.append(ORCA_KEYS[i]).append('=');
            WireNumbers.append(out, value / TO_SEED[i]);
        }
        return out.toString();
    }

    private static double applicationUtilization(Map<String, Double> seedMetrics) {
        double explicit = finiteOrNaN(seedMetrics.get(APP_UTILIZATION));
        if (!Double.isNaN(explicit)) {
            return explicit;
        }
        double max = Double.NaN;
        for (String name : APPLICATION_INPUTS) {
            double v = finiteOrNaN(seedMetrics.get(name));
            if (!Double.isNaN(v) && (Double.isNaN(max) || v > max)) {
                max = v;
            }
        }
        return max;
    }

    private static double finiteOrNaN(Double value) {
        return value == null || !Double.isFinite(value) ? Double.NaN : value;
    }

    /**
     * Parses a header value in TEXT or JSON form into seed-named metrics.
     *
     * @throws MalformedLoadReportException on a missing or unknown form prefix, a pair without a key or
     *     value, a non-numeric, negative or non-finite value (also once scaled to a percentage), a duplicate
     *     key, or invalid JSON
     */
    public static Map<String, Double> parse(String headerValue) throws MalformedLoadReportException {
        if (headerValue == null) {
            throw new MalformedLoadReportException("Load report header is missing (null)");
        }
        if (headerValue.length() > MAX_LENGTH) {
            throw new MalformedLoadReportException("Load report is " + headerValue.length()
                    + " characters long, limit is " + MAX_LENGTH);
        }
        String value = headerValue.strip();
        if (startsWithForm(value, "TEXT")) {
            return parseText(value.substring(4));
        }
        if (startsWithForm(value, "JSON")) {
            return OrcaJsonForm.parse(value.substring(4));
        }
        if (startsWithForm(value, "BIN")) {
            throw new MalformedLoadReportException("Load report in BIN (protobuf) form is not supported; "
                    + "send the TEXT or JSON form");
        }
        throw new MalformedLoadReportException("Load report must start with 'TEXT ' or 'JSON ', got: "
                + abbreviate(value));
    }

    private static boolean startsWithForm(String value, String form) {
        return value.regionMatches(true, 0, form, 0, form.length())
                && (value.length() == form.length() || Character.isWhitespace(value.charAt(form.length())));
    }

    private static Map<String, Double> parseText(String body) throws MalformedLoadReportException {
        Map<String, Double> out = new LinkedHashMap<>();
        String trimmed = body.strip();
        if (trimmed.isEmpty()) {
            return out;
        }
        for (String pair : trimmed.split(",", -1)) {
            int sep = separatorIndex(pair);
            if (sep < 0) {
                throw new MalformedLoadReportException("Load report pair '" + abbreviate(pair)
                        + "' has no '=' or ':' separator");
            }
            String key = pair.substring(0, sep).strip();
            String number = pair.substring(sep + 1).strip();
            if (key.isEmpty()) {
                throw new MalformedLoadReportException("Load report pair '" + abbreviate(pair) + "' has no key");
            }
            put(out, key, parseNumber(key, number));
        }
        return out;
    }

    private static int separatorIndex(String pair) {
        int eq = pair.indexOf('=');
        int colon = pair.indexOf(':');
        if (eq < 0) {
            return colon;
        }
        return colon < 0 ? eq : Math.min(eq, colon);
    }

    private static double parseNumber(String key, String number) throws MalformedLoadReportException {
        if (number.isEmpty()) {
            throw new MalformedLoadReportException("Load report key '" + key + "' has no value");
        }
        double value;
        try {
            value = Double.parseDouble(number);
        } catch (NumberFormatException e) {
            throw new MalformedLoadReportException("Load report key '" + key + "' has non-numeric value '"
                    + abbreviate(number) + "'", e);
        }
        // Double.parseDouble also accepts "NaN", "Infinity" and hex floats ("0x1p3"); none belongs here.
        if (!Double.isFinite(value) || !number.matches("[-+]?[0-9]*\\.?[0-9]+([eE][-+]?[0-9]+)?")) {
            throw new MalformedLoadReportException("Load report key '" + key + "' has invalid value '"
                    + abbreviate(number) + "'");
        }
        return value;
    }

    /**
     * Stores one ORCA key/value under its seed name, scaled. Shared with the JSON form.
     */
    static void put(Map<String, Double> out, String orcaKey, double wireValue) throws MalformedLoadReportException {
        if (wireValue < 0) {
            throw new MalformedLoadReportException("Load report key '" + orcaKey + "' is negative: " + wireValue);
        }
        String name = orcaKey;
        double value = wireValue;
        for (int i = 0; i < ORCA_KEYS.length; i++) {
            if (ORCA_KEYS[i].equals(orcaKey)) {
                name = SEED_NAMES[i];
                value = wireValue * TO_SEED[i];
                break;
            }
        }
        if (!Double.isFinite(value)) {
            // a huge but finite fraction overflows when turned into a percentage; policies need finite inputs
            throw new MalformedLoadReportException("Load report key '" + orcaKey + "' is out of range: " + wireValue);
        }
        if (out.putIfAbsent(name, value) != null) {
            throw new MalformedLoadReportException("Load report key '" + orcaKey + "' appears twice");
        }
    }

    static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }
}
