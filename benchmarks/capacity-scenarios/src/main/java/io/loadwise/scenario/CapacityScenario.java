package io.loadwise.scenario;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Seed 001's five capacity scenarios (Table 9, results in Tables 10-14) on a three-node cluster: VCN1 and VCN2 are
 * full nodes, VCN3 has half the heap, half the HTTP worker threads, half the JDBC pool, or all three. The request
 * queue is halved with the worker threads only under {@link Vcn3Queue#HALF}; Table 9 keeps it.
 *
 * <p>This is the one place that says which resource a scenario halves, and its key and title. It does not halve
 * anything itself: the node launcher's {@code NodeCapacity} (a real JVM, with minimums it refuses to go below) and
 * the simulator's {@code NodeResources} (a model, floored at one worker and one connection) each map these flags
 * onto their own record, because what a half may come down to differs between the two.
 */
public enum CapacityScenario {
    BASELINE("baseline", "Baseline (seed Table 10)", false, false, false),
    HEAP("heap", "JVM Heap Space (seed Table 11)", true, false, false),
    HTTP_THREADS("http-threads", "HTTP connection queue worker threads (seed Table 12)", false, true, false),
    JDBC("jdbc", "JDBC database connection threads (seed Table 13)", false, false, true),
    COMBINED("combined", "All Scenarios Combined (seed Table 14)", true, true, true);

    /** The number of nodes the table describes: VCN1, VCN2 (full) and VCN3. */
    public static final int NODES = 3;

    private final String key;
    private final String title;
    private final boolean halvesHeap;
    private final boolean halvesHttpThreads;
    private final boolean halvesJdbcPool;

    CapacityScenario(String key, String title, boolean halvesHeap, boolean halvesHttpThreads, boolean halvesJdbcPool) {
        this.key = key;
        this.title = title;
        this.halvesHeap = halvesHeap;
        this.halvesHttpThreads = halvesHttpThreads;
        this.halvesJdbcPool = halvesJdbcPool;
    }

    /** The command-line and file name: baseline, heap, http-threads, jdbc, combined. */
    public String key() {
        return key;
    }

    /** The seed's table title, as the reports print it. */
    public String title() {
        return title;
    }

    /** Whether VCN3 gets half the JVM heap. */
    public boolean halvesHeap() {
        return halvesHeap;
    }

    /** Whether VCN3 gets half the HTTP worker threads (and, under {@link Vcn3Queue#HALF}, half the queue). */
    public boolean halvesHttpThreads() {
        return halvesHttpThreads;
    }

    /** Whether VCN3 gets half the JDBC connection pool. */
    public boolean halvesJdbcPool() {
        return halvesJdbcPool;
    }

    /** VCN1, VCN2 and VCN3 of any scenario: the full node twice, then VCN3, whatever a node's record is. */
    public static <N> List<N> nodes(N full, N vcn3) {
        return List.of(full, full, vcn3);
    }

    /**
     * One scenario by its key or its constant's name, in any case ({@code http-threads}, {@code HTTP_THREADS}):
     * {@code bench sweep --scenarios} and the run order of a sweep folder.
     */
    public static CapacityScenario byKey(String text) {
        CapacityScenario scenario = find(text);
        if (scenario == null) {
            throw new IllegalArgumentException("unknown scenario '" + text + "'; known scenarios: " + knownKeys());
        }
        return scenario;
    }

    /**
     * {@code simulate --scenario}: {@code all} for the five in the sweep's order, or keys separated by commas. Its
     * error names the option and offers {@code all}, which only this form takes.
     */
    public static List<CapacityScenario> parse(String keys) {
        if (keys.trim().equalsIgnoreCase("all")) {
            return List.of(values());
        }
        return Arrays.stream(keys.split(",")).map(String::trim).map(key -> {
            CapacityScenario scenario = find(key);
            if (scenario == null) {
                throw new IllegalArgumentException("--scenario: unknown scenario '" + key + "' (" + knownKeys()
                        + " or all)");
            }
            return scenario;
        }).toList();
    }

    private static CapacityScenario find(String text) {
        for (CapacityScenario scenario : values()) {
            if (scenario.key.equalsIgnoreCase(text) || scenario.name().equalsIgnoreCase(text)) {
                return scenario;
            }
        }
        return null;
    }

    /** "baseline, heap, http-threads, jdbc, combined": from the constants, so a new one is listed too. */
    private static String knownKeys() {
        return Arrays.stream(values()).map(CapacityScenario::key).collect(Collectors.joining(", "));
    }
}
