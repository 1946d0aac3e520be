package io.loadwise.bench.sweep;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A policy row of the sweep: the dispatcher mode, the policy id and the static weights of VCN1..3 (2:2:1
 * for the weighted rows, 1:1:1 otherwise). The twelve rows of the seed's Table 10 are constants, in its
 * order ({@link #values()}); any other policy the dispatcher knows (a plugin through the SPI,
 * {@code jvm-aware-classic}, {@code adaptive}) is a row too: {@code --policies http-<id>} or
 * {@code tcp-<id>}, with 1:1:1 weights, or 2:2:1 as {@code http-<id>@2:2:1}. Nothing here assumes a list:
 * whether the dispatcher knows the id is found out when the cell starts it.
 *
 * <p>Any row may carry policy options, each as {@code +name=value}: {@code http-adaptive+gcTimeThreshold=25}
 * runs adaptive with {@code "policyOptions": {"gcTimeThreshold": 25}}, beside a plain {@code http-adaptive} row
 * in the same sweep. The dispatcher validates the names and values when the cell starts.
 *
 * <p>The seed's "jQoStdV1Policy" (Equation 2, argmin with exclusion thresholds) is Loadwise's
 * {@code jvm-aware-classic}; {@code jvm-aware} departs from it (it weighs live connections by the agent's
 * headroom), and its label says so.
 */
public final class PolicyRow {

    public static final PolicyRow TCP_RANDOM = seed("TCP_RANDOM", "TCP Random", "tcp", "random", false);
    public static final PolicyRow HTTP_RANDOM = seed("HTTP_RANDOM", "HTTP Random", "http", "random", false);
    public static final PolicyRow TCP_ROUND_ROBIN = seed("TCP_ROUND_ROBIN", "TCP Round-Robin", "tcp", "round-robin", false);
    public static final PolicyRow HTTP_ROUND_ROBIN = seed("HTTP_ROUND_ROBIN", "HTTP Round-Robin", "http", "round-robin", false);
    public static final PolicyRow TCP_STATIC_WRR = seed("TCP_STATIC_WRR", "TCP Static Weighted Round-Robin", "tcp",
            "static-wrr", true);
    public static final PolicyRow HTTP_STATIC_WRR = seed("HTTP_STATIC_WRR", "HTTP Static Weighted Round-Robin", "http",
            "static-wrr", true);
    public static final PolicyRow HTTP_F5_DYNAMIC_RATIO = seed("HTTP_F5_DYNAMIC_RATIO", "HTTP F5 Dynamic Ratio", "http",
            "f5-dynamic-ratio", false);
    public static final PolicyRow HTTP_JVM_AWARE = seed("HTTP_JVM_AWARE",
            "HTTP JVM-aware, headroom-weighted (departure from the seed)", "http", "jvm-aware", false);
    public static final PolicyRow HTTP_FASTEST_RESPONSE_TIME = seed("HTTP_FASTEST_RESPONSE_TIME",
            "HTTP Fastest Response Time", "http", "fastest-response-time", false);
    public static final PolicyRow HTTP_LEAST_LOADED = seed("HTTP_LEAST_LOADED", "HTTP Least Loaded", "http",
            "least-loaded", false);
    public static final PolicyRow HTTP_LEAST_CONNECTIONS = seed("HTTP_LEAST_CONNECTIONS", "HTTP Least Connections",
            "http", "least-connections", false);
    public static final PolicyRow HTTP_WEIGHTED_LEAST_CONNECTIONS = seed("HTTP_WEIGHTED_LEAST_CONNECTIONS",
            "HTTP Weighted Least Connections", "http", "weighted-least-connections", true);

    private static final List<PolicyRow> SEED = List.of(TCP_RANDOM, HTTP_RANDOM, TCP_ROUND_ROBIN, HTTP_ROUND_ROBIN,
            TCP_STATIC_WRR, HTTP_STATIC_WRR, HTTP_F5_DYNAMIC_RATIO, HTTP_JVM_AWARE, HTTP_FASTEST_RESPONSE_TIME,
            HTTP_LEAST_LOADED, HTTP_LEAST_CONNECTIONS, HTTP_WEIGHTED_LEAST_CONNECTIONS);

    /** Labels of policies outside the seed's table whose names the tables should spell out. */
    private static final java.util.Map<String, String> KNOWN_LABELS = java.util.Map.of(
            "jvm-aware-classic", "JVM-aware classic (the seed's jQoStdV1Policy, Equation 2 argmin)",
            "adaptive", "Adaptive (Loadwise)",
            "p2c-least-request", "P2C least request (Envoy's default)",
            "orca-wrr", "ORCA weighted round robin (gRPC A58)");

    private static final List<Integer> WEIGHTED = List.of(2, 2, 1);
    private static final List<Integer> EQUAL = List.of(1, 1, 1);
    private static final String WEIGHTED_SUFFIX = "@2:2:1";
    private static final String OPTION_SEPARATOR = "+";
    /**
     * The one row option that is not the policy's: {@code +disabledNode=3} starts the dispatcher with VCN3
     * {@code "enabled": false}, so the row measures the cluster without that node (the control of a run where it
     * misbehaves, e.g. {@code --gc-pressure VCN3:...}).
     */
    public static final String DISABLED_NODE = "disabledNode";

    private final String name;
    private final String label;
    private final String mode;
    private final String policyId;
    private final boolean weighted;
    /** The policy's options for this row, by name; empty for the policy's defaults. */
    private final SortedMap<String, Double> options;

    private PolicyRow(String name, String label, String mode, String policyId, boolean weighted) {
        this(name, label, mode, policyId, weighted, Collections.emptySortedMap());
    }

    private PolicyRow(String name, String label, String mode, String policyId, boolean weighted,
            SortedMap<String, Double> options) {
        this.name = name;
        this.label = label;
        this.mode = mode;
        this.policyId = policyId;
        this.weighted = weighted;
        this.options = options;
    }

    private static PolicyRow seed(String name, String label, String mode, String policyId, boolean weighted) {
        return new PolicyRow(name, label, mode, policyId, weighted);
    }

    /** The seed's twelve rows, in its Table 10 order: the default sweep. */
    public static PolicyRow[] values() {
        return SEED.toArray(PolicyRow[]::new);
    }

    /** The row's name in the tables, as the seed names it (or the policy id for rows outside the seed's). */
    public String label() {
        return label;
    }

    /** Dispatcher cluster mode: {@code tcp} or {@code http}. */
    public String mode() {
        return mode;
    }

    public String policyId() {
        return policyId;
    }

    /** The index (0-based) of the node this row starts disabled ({@link #DISABLED_NODE}); -1 for none. */
    public int disabledNode() {
        Double n = options.get(DISABLED_NODE);
        return n == null ? -1 : n.intValue() - 1;
    }

    /** {@link #options()} without {@link #DISABLED_NODE}: what goes into the cluster's {@code policyOptions}. */
    public SortedMap<String, Double> policyOptions() {
        SortedMap<String, Double> policy = new TreeMap<>(options);
        policy.remove(DISABLED_NODE);
        return Collections.unmodifiableSortedMap(policy);
    }

    /** The cluster's {@code policyOptions} for this row; empty when the policy runs with its defaults. */
    public Map<String, Double> options() {
        return options;
    }

    /** Static weights of VCN1..3. */
    public List<Integer> weights() {
        return weighted ? WEIGHTED : EQUAL;
    }

    /** "2:2:1" or "1:1:1". */
    public String weightRatio() {
        return weights().get(0) + ":" + weights().get(1) + ":" + weights().get(2);
    }

    /**
     * Short file-name key, e.g. {@code http-static-wrr}, {@code http-adaptive@2:2:1},
     * {@code http-adaptive+gcTimeThreshold=25}.
     */
    public String key() {
        boolean seedWeights = SEED.stream().anyMatch(r -> r.mode.equals(mode) && r.policyId.equals(policyId)
                && r.weighted == weighted);
        return mode + "-" + policyId + (weighted && !seedWeights ? WEIGHTED_SUFFIX : "") + optionsText();
    }

    private String optionsText() {
        StringBuilder out = new StringBuilder();
        options.forEach((k, v) -> out.append(OPTION_SEPARATOR).append(k).append('=').append(number(v)));
        return out.toString();
    }

    private static String number(double v) {
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }

    /**
     * The seed row whose {@link #key()} or constant name is {@code text}, case-insensitive; otherwise the
     * row {@code tcp-<id>} or {@code http-<id>} (optionally {@code @2:2:1}) for any other policy id; either
     * followed by options {@code +name=value}.
     */
    public static PolicyRow parse(String text) {
        int plus = text.indexOf(OPTION_SEPARATOR);
        if (plus < 0) {
            return parseRow(text);
        }
        PolicyRow row = parseRow(text.substring(0, plus));
        SortedMap<String, Double> options = new TreeMap<>();
        for (String option : text.substring(plus + 1).split("\\+", -1)) {
            int eq = option.indexOf('=');
            String name = eq < 0 ? "" : option.substring(0, eq).trim();
            Double value = eq < 0 ? null : number(option.substring(eq + 1).trim());
            if (!name.matches("[A-Za-z][A-Za-z0-9]*") || value == null) {
                throw new IllegalArgumentException("policy row '" + text + "': option '" + option
                        + "' is not name=number, e.g. http-adaptive+gcTimeThreshold=25");
            }
            if (name.equals(DISABLED_NODE) && !(value == 1 || value == 2 || value == 3)) {
                throw new IllegalArgumentException("policy row '" + text + "': " + DISABLED_NODE + " is 1, 2 or 3 (VCN1..3), got "
                        + option.substring(eq + 1).trim());
            }
            if (options.put(name, value) != null) {
                throw new IllegalArgumentException("policy row '" + text + "': option " + name + " given twice");
            }
        }
        String label = row.label + " (" + String.join(", ", options.entrySet().stream()
                .map(e -> e.getKey() + " " + number(e.getValue())).toList()) + ")";
        return new PolicyRow(row.name + "+" + String.join("+", options.keySet()), label, row.mode, row.policyId,
                row.weighted, Collections.unmodifiableSortedMap(options));
    }

    private static Double number(String text) {
        try {
            double v = Double.parseDouble(text);
            return Double.isFinite(v) ? v : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static PolicyRow parseRow(String text) {
        for (PolicyRow row : SEED) {
            if (row.key().equalsIgnoreCase(text) || row.name.equalsIgnoreCase(text)) {
                return row;
            }
        }
        String key = text.trim().toLowerCase(Locale.ROOT);
        boolean weighted = key.endsWith(WEIGHTED_SUFFIX);
        if (weighted) {
            key = key.substring(0, key.length() - WEIGHTED_SUFFIX.length());
        }
        int dash = key.indexOf('-');
        String mode = dash < 0 ? "" : key.substring(0, dash);
        String id = dash < 0 ? "" : key.substring(dash + 1);
        if (!(mode.equals("tcp") || mode.equals("http")) || !id.matches("[a-z0-9][a-z0-9.-]*")) {
            throw new IllegalArgumentException("unknown policy row '" + text + "': give a seed row ("
                    + String.join(", ", SEED.stream().map(PolicyRow::key).toList()) + ") or tcp-<policy id> /"
                    + " http-<policy id> (add @2:2:1 for the weighted ratio), e.g. http-adaptive");
        }
        for (PolicyRow row : SEED) {
            if (row.mode.equals(mode) && row.policyId.equals(id) && row.weighted == weighted) {
                return row;
            }
        }
        String label = mode.toUpperCase(Locale.ROOT) + " " + KNOWN_LABELS.getOrDefault(id, id);
        return new PolicyRow(key.toUpperCase(Locale.ROOT).replace('-', '_'), label, mode, id, weighted);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PolicyRow r && r.mode.equals(mode) && r.policyId.equals(policyId) && r.weighted == weighted
                && r.options.equals(options);
    }

    @Override
    public int hashCode() {
        return Objects.hash(mode, policyId, weighted, options);
    }

    @Override
    public String toString() {
        return key(); // lower case but for the options' names, which parse() needs as they are
    }
}
