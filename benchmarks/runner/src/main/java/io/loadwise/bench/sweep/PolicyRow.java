package io.loadwise.bench.sweep;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The twelve policy rows of the seed's Table 10, in its order: the dispatcher mode, the policy id
 * and the static weights of VCN1..3 (2:2:1 for the weighted rows, 1:1:1 otherwise).
 *
 * <p>The seed's "jQoStdV1Policy" is Loadwise's {@code jvm-aware} policy.
 */
public enum PolicyRow {
    TCP_RANDOM("TCP Random", "tcp", "random", false),
    HTTP_RANDOM("HTTP Random", "http", "random", false),
    TCP_ROUND_ROBIN("TCP Round-Robin", "tcp", "round-robin", false),
    HTTP_ROUND_ROBIN("HTTP Round-Robin", "http", "round-robin", false),
    TCP_STATIC_WRR("TCP Static Weighted Round-Robin", "tcp", "static-wrr", true),
    HTTP_STATIC_WRR("HTTP Static Weighted Round-Robin", "http", "static-wrr", true),
    HTTP_F5_DYNAMIC_RATIO("HTTP F5 Dynamic Ratio", "http", "f5-dynamic-ratio", false),
    HTTP_JVM_AWARE("HTTP JVM-aware (seed: jQoStdV1Policy)", "http", "jvm-aware", false),
    HTTP_FASTEST_RESPONSE_TIME("HTTP Fastest Response Time", "http", "fastest-response-time", false),
    HTTP_LEAST_LOADED("HTTP Least Loaded", "http", "least-loaded", false),
    HTTP_LEAST_CONNECTIONS("HTTP Least Connections", "http", "least-connections", false),
    HTTP_WEIGHTED_LEAST_CONNECTIONS("HTTP Weighted Least Connections", "http", "weighted-least-connections", true);

    private static final List<Integer> WEIGHTED = List.of(2, 2, 1);
    private static final List<Integer> EQUAL = List.of(1, 1, 1);

    private final String label;
    private final String mode;
    private final String policyId;
    private final boolean weighted;

    PolicyRow(String label, String mode, String policyId, boolean weighted) {
        this.label = label;
        this.mode = mode;
        this.policyId = policyId;
        this.weighted = weighted;
    }

    /** The row's name in the tables, as the seed names it. */
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

    /** Static weights of VCN1..3. */
    public List<Integer> weights() {
        return weighted ? WEIGHTED : EQUAL;
    }

    /** "2:2:1" or "1:1:1". */
    public String weightRatio() {
        return weights().get(0) + ":" + weights().get(1) + ":" + weights().get(2);
    }

    /** Short file-name key, e.g. {@code http-static-wrr}. */
    public String key() {
        return mode + "-" + policyId;
    }

    /** The row whose {@link #key()} or enum name is {@code text}, case-insensitive. */
    public static PolicyRow parse(String text) {
        for (PolicyRow row : values()) {
            if (row.key().equalsIgnoreCase(text) || row.name().equalsIgnoreCase(text)) {
                return row;
            }
        }
        throw new IllegalArgumentException("unknown policy row '" + text + "'; known rows: "
                + String.join(", ", Arrays.stream(values()).map(PolicyRow::key).toList()));
    }

    @Override
    public String toString() {
        return key().toLowerCase(Locale.ROOT);
    }
}
