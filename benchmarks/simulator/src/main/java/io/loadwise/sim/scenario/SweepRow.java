package io.loadwise.sim.scenario;

import java.util.List;
import java.util.Locale;

/**
 * A row of {@code bench sweep}: {@code http-<policy id>} or {@code tcp-<policy id>}, 2:2:1 weights for the seed's
 * weighted rows ({@code static-wrr}, {@code weighted-least-connections}) or with the suffix {@code @2:2:1}, else
 * 1:1:1. The same keys name the sweep's {@code cells/<scenario>/<row>} files, so simulated and measured rows match
 * by key.
 */
public record SweepRow(String key, boolean http, String policyId, List<Integer> weights) {

    private static final String WEIGHTED_SUFFIX = "@2:2:1";

    /**
     * The rows the agreement table runs by default: the sweep's twelve seed rows, the seed's Equation 2 rule and
     * Loadwise's adaptive policy.
     */
    public static final String DEFAULT_ROWS = "tcp-random,http-random,tcp-round-robin,http-round-robin,tcp-static-wrr,"
            + "http-static-wrr,http-f5-dynamic-ratio,http-jvm-aware,http-jvm-aware-classic,http-adaptive,"
            + "http-fastest-response-time,http-least-loaded,http-least-connections,http-weighted-least-connections";

    public static SweepRow parse(String key) {
        String k = key.trim().toLowerCase(Locale.ROOT);
        boolean suffix = k.endsWith(WEIGHTED_SUFFIX);
        String base = suffix ? k.substring(0, k.length() - WEIGHTED_SUFFIX.length()) : k;
        boolean http;
        if (base.startsWith("http-")) {
            http = true;
        } else if (base.startsWith("tcp-")) {
            http = false;
        } else {
            throw new IllegalArgumentException("--rows: '" + key + "' is not a sweep row (http-<policy id> or"
                    + " tcp-<policy id>, optionally with @2:2:1)");
        }
        String id = base.substring(http ? 5 : 4);
        if (id.isEmpty()) {
            throw new IllegalArgumentException("--rows: '" + key + "' names no policy");
        }
        boolean weighted = suffix || id.equals("static-wrr") || id.equals("weighted-least-connections");
        return new SweepRow(k, http, id, weighted ? List.of(2, 2, 1) : List.of(1, 1, 1));
    }

    public static List<SweepRow> parseList(String keys) {
        return java.util.Arrays.stream(keys.split(",")).filter(s -> !s.isBlank()).map(SweepRow::parse).toList();
    }

    public String weightRatio() {
        return weights.get(0) + ":" + weights.get(1) + ":" + weights.get(2);
    }

    /** The 2:2:1 control of the seed's tables. */
    public boolean control() {
        return key.equals("http-static-wrr");
    }
}
