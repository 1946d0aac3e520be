package io.loadwise.sim.scenario;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Seed 001's five capacity scenarios, as {@code bench sweep} runs them: VCN1 and VCN2 are full nodes, VCN3 has
 * half the heap, the worker threads, the JDBC pool or all three. The request queue is halved with the worker
 * threads only under {@link Vcn3Queue#HALF} ({@code --vcn3-queue half}); the seed's Table 9 keeps it.
 */
public enum CapacityScenario {
    BASELINE("baseline", "Baseline (seed Table 10)", false, false, false),
    HEAP("heap", "JVM Heap Space (seed Table 11)", true, false, false),
    HTTP_THREADS("http-threads", "HTTP connection queue worker threads (seed Table 12)", false, true, false),
    JDBC("jdbc", "JDBC database connection threads (seed Table 13)", false, false, true),
    COMBINED("combined", "All Scenarios Combined (seed Table 14)", true, true, true);

    private final String key;
    private final String title;
    private final boolean halfHeap;
    private final boolean halfThreads;
    private final boolean halfJdbc;

    CapacityScenario(String key, String title, boolean halfHeap, boolean halfThreads, boolean halfJdbc) {
        this.key = key;
        this.title = title;
        this.halfHeap = halfHeap;
        this.halfThreads = halfThreads;
        this.halfJdbc = halfJdbc;
    }

    public String key() {
        return key;
    }

    public String title() {
        return title;
    }

    /** VCN3's resources in this scenario with the seed's queue. */
    public NodeResources smallNode(NodeResources full) {
        return smallNode(full, Vcn3Queue.SEED);
    }

    /**
     * VCN3's resources in this scenario, from a full node's: halved where the scenario says, at least 1; the queue
     * halved with the worker threads when {@code queue} is {@link Vcn3Queue#HALF}.
     */
    public NodeResources smallNode(NodeResources full, Vcn3Queue queue) {
        return new NodeResources(halfHeap ? full.heapMb() / 2 : full.heapMb(),
                halfThreads ? Math.max(1, full.workers() / 2) : full.workers(),
                halfThreads ? queue.queueWithHalfThreads(full.queue()) : full.queue(),
                halfJdbc ? Math.max(1, full.jdbcPool() / 2) : full.jdbcPool());
    }

    /** The nodes VCN1, VCN2, VCN3 of this scenario with the seed's queue. */
    public List<NodeResources> nodes(NodeResources full) {
        return nodes(full, Vcn3Queue.SEED);
    }

    /** The nodes VCN1, VCN2, VCN3 of this scenario. */
    public List<NodeResources> nodes(NodeResources full, Vcn3Queue queue) {
        return List.of(full, full, smallNode(full, queue));
    }

    /** A scenario key, or {@code all} for the five in the sweep's order. */
    public static List<CapacityScenario> parse(String keys) {
        if (keys.trim().equalsIgnoreCase("all")) {
            return List.of(values());
        }
        return Arrays.stream(keys.split(",")).map(String::trim).map(CapacityScenario::byKey).toList();
    }

    public static CapacityScenario byKey(String key) {
        for (CapacityScenario s : values()) {
            if (s.key.equals(key.toLowerCase(Locale.ROOT))) {
                return s;
            }
        }
        throw new IllegalArgumentException("--scenario: unknown scenario '" + key + "' (baseline, heap, http-threads,"
                + " jdbc, combined or all)");
    }
}
