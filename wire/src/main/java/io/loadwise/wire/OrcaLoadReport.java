package io.loadwise.wire;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Codec for the ORCA native load report header ({@value #HEADER_NAME}) that Envoy and gRPC read, mapped
 * to and from the seed's metric names.
 *
 * <p>On the wire, utilisations are fractions (CPU may exceed 1), rates are per second and counts are plain
 * numbers; in the maps of this API they carry seed names, percentages 0-100 and plain rates and counts,
 * exactly like the JSON endpoint. ORCA's three standard fields that gRPC's weighted round robin and Envoy's
 * client-side weighted round robin read map to the agent's filter metrics: {@code rps_fractional} to
 * {@code APP_RQST_RATE}, {@code eps} to {@code APP_RQST_ERR_RATE}, {@code application_utilization} to
 * {@value #APP_UTILIZATION}.
 *
 * <pre>{@code
 * endpoint-load-metrics: TEXT cpu_utilization=0.23,mem_utilization=0.41,rps_fractional=120.5,eps=0.5,
 *     application_utilization=0.61,named_metrics.os_cpu_iowait=0.01,named_metrics.jvm_heap_used=0.45,...
 * }</pre>
 *
 * The same pairs go out in one of three forms ({@link Form}): TEXT as above, JSON
 * ({@code JSON {"cpu_utilization":0.23,"named_metrics":{"jvm_heap_used":0.45}}}) or BIN (the
 * {@code xds.data.orca.v3.OrcaLoadReport} protobuf, base64: {@link OrcaBinaryForm}). All functions are pure
 * and thread-safe. {@link #parse} accepts all three (TEXT with {@code =} or {@code :} separators); unknown
 * keys are kept under their ORCA key with their value as sent, so nothing is silently lost.
 */
public final class OrcaLoadReport {

    /** The response header carrying the report. */
    public static final String HEADER_NAME = "endpoint-load-metrics";

    /**
     * Seed-style name given to ORCA's {@code application_utilization} (0-100): the agent's mean requests in
     * flight over its capacity in the last second (see docs/agent.md).
     */
    public static final String APP_UTILIZATION = "APP_UTILIZATION%";

    /**
     * The seed metrics the header carries (besides the filter's rate, error rate and utilization), and the
     * two GC figures policies read ({@link GcMetric}).
     */
    public static final java.util.Set<String> CARRIED_METRICS = java.util.Set.of(
            SeedMetric.OS_CPU_USED_PCT.seedName(), SeedMetric.OS_MEM_USED_PCT.seedName(),
            SeedMetric.OS_CPU_IOWAIT_PCT.seedName(), SeedMetric.JVM_HEAP_USED_PCT.seedName(),
            SeedMetric.AMX_CONNS_Q_USED_PCT.seedName(), SeedMetric.AMX_CONNS_Q_THRBSY_PCT.seedName(),
            SeedMetric.AMX_JDBC_ACTC_PCT.seedName(), SeedMetric.AMX_SESSIONS_ACT.seedName(),
            GcMetric.JVM_GC_TIME_PCT.metricName(), GcMetric.JVM_OLD_AFTER_GC_PCT.metricName(),
            SeedMetric.AMX_JDBC_WAIT.seedName());

    /** The header's three forms, named by the prefix Envoy's parser reads. */
    public enum Form {
        TEXT, JSON, BIN
    }

    /** Reports longer than this are rejected before parsing (Envoy's own limit is 8 KiB of headers). */
    static final int MAX_LENGTH = 8192;

    /** The ORCA keys in the order they are written; {@code named_metrics.x} are entries of that map. */
    static final String[] ORCA_KEYS = {
        "cpu_utilization", "mem_utilization", "rps_fractional", "eps", "application_utilization",
        "named_metrics.os_cpu_iowait", "named_metrics.jvm_heap_used", "named_metrics.http_queue_used",
        "named_metrics.http_threads_busy", "named_metrics.jdbc_active", "named_metrics.http_sessions_active",
        "named_metrics.jvm_gc_time", "named_metrics.jvm_old_after_gc", "named_metrics.jdbc_waiting",
    };
    private static final String[] SEED_NAMES = {
        SeedMetric.OS_CPU_USED_PCT.seedName(), SeedMetric.OS_MEM_USED_PCT.seedName(),
        FilterMetric.APP_RQST_RATE.metricName(), FilterMetric.APP_RQST_ERR_RATE.metricName(), APP_UTILIZATION,
        SeedMetric.OS_CPU_IOWAIT_PCT.seedName(), SeedMetric.JVM_HEAP_USED_PCT.seedName(),
        SeedMetric.AMX_CONNS_Q_USED_PCT.seedName(), SeedMetric.AMX_CONNS_Q_THRBSY_PCT.seedName(),
        SeedMetric.AMX_JDBC_ACTC_PCT.seedName(), SeedMetric.AMX_SESSIONS_ACT.seedName(),
        GcMetric.JVM_GC_TIME_PCT.metricName(), GcMetric.JVM_OLD_AFTER_GC_PCT.metricName(),
        SeedMetric.AMX_JDBC_WAIT.seedName(),
    };
    /** Wire value times this factor gives the seed value: fractions become percentages, rates and counts stay. */
    private static final double[] TO_SEED = {100, 100, 1, 1, 100, 100, 100, 100, 100, 100, 1, 100, 100, 1};

    private OrcaLoadReport() {
    }

    /** {@link #encode} in TEXT form, the form the agent sends unless configured otherwise. */
    public static String encodeText(Map<String, Double> seedMetrics) {
        return encode(Form.TEXT, seedMetrics);
    }

    /**
     * Encodes the header value (without the header name) in the given form. Metrics that are absent or not
     * finite are left out, never sent as 0; a report with nothing to say is the bare prefix
     * ({@code "TEXT "}, {@code "JSON {}"}, {@code "BIN "}).
     */
    public static String encode(Form form, Map<String, Double> seedMetrics) {
        String[] keys = new String[ORCA_KEYS.length];
        double[] values = new double[ORCA_KEYS.length];
        int count = 0;
        for (int i = 0; i < ORCA_KEYS.length; i++) {
            Double value = seedMetrics.get(SEED_NAMES[i]);
            if (value != null && Double.isFinite(value) && value >= 0) {
                keys[count] = ORCA_KEYS[i];
                values[count++] = value / TO_SEED[i];
            }
        }
        switch (form) {
            case BIN:
                return "BIN " + OrcaBinaryForm.encode(keys, values, count);
            case JSON:
                return "JSON " + OrcaJsonForm.encode(keys, values, count);
            default:
                StringBuilder out = new StringBuilder(256).append("TEXT ");
                for (int i = 0; i < count; i++) {
                    out.append(i == 0 ? "" : ",").append(keys[i]).append('=');
                    WireNumbers.append(out, values[i]);
                }
                return out.toString();
        }
    }

    /** Whether an encoded report carries no metric (its bare form prefix). */
    public static boolean isEmpty(String encoded) {
        String body = encoded.substring(encoded.indexOf(' ') + 1);
        return body.isEmpty() || body.equals("{}");
    }

    /**
     * Parses a header value in TEXT, JSON or BIN form into seed-named metrics.
     *
     * @throws MalformedLoadReportException on a missing or unknown form prefix, a pair without a key or
     *     value, a non-numeric, negative or non-finite value (also once scaled to a percentage), a duplicate
     *     key, invalid JSON, or invalid base64 or protobuf
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
            return OrcaBinaryForm.parse(value.substring(3).strip());
        }
        throw new MalformedLoadReportException("Load report must start with 'TEXT ', 'JSON ' or 'BIN ', got: "
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
