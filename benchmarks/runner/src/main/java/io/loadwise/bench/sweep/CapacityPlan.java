package io.loadwise.bench.sweep;

import io.loadwise.node.CapacityScenario;
import io.loadwise.node.NodeCapacity;
import io.loadwise.sim.scenario.Vcn3Queue;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A full-capacity node (VCN1 and VCN2 in every scenario) and how the five scenarios of seed 001 Table
 * 7/9 halve VCN3; {@code vcn3Queue} says whether VCN3's request queue is halved with its worker threads
 * ({@link Vcn3Queue#HALF}, a departure from Table 9) or kept ({@link Vcn3Queue#SEED}). The seed's full node is 512 MB, 12 threads, queue 12, 10 JDBC connections; on a small
 * machine with a few-second run the heap is scaled down so that a half-heap node really runs short
 * (see {@code ./loadwise bench calibrate}). Threads and JDBC connections are not scaled: 30 client
 * threads over 3 nodes put about 10 concurrent requests on each node, as on the seed's testbed.
 */
public record CapacityPlan(NodeCapacity full, Vcn3Queue vcn3Queue) {

    /** The seed's plan: VCN3 keeps the full queue. */
    public CapacityPlan(NodeCapacity full) {
        this(full, Vcn3Queue.SEED);
    }

    /** Seed Table 9 values, unscaled. */
    public static final CapacityPlan SEED = new CapacityPlan(NodeCapacity.BASELINE);

    /** The seed's plan with the full node's heap set to {@code heapMb}. */
    public static CapacityPlan withHeap(int heapMb) {
        return new CapacityPlan(NodeCapacity.BASELINE.withHeapMb(heapMb));
    }

    /** Capacities of VCN1..3 in {@code scenario}. */
    public List<NodeCapacity> capacities(CapacityScenario scenario) {
        List<NodeCapacity> nodes = new ArrayList<>(CapacityScenario.NODES);
        nodes.add(full);
        nodes.add(full);
        nodes.add(switch (scenario) {
            case BASELINE -> full;
            case HEAP -> full.withHeapMb(full.heapMb() / 2);
            case HTTP_THREADS -> halfThreads(full);
            case JDBC -> full.withJdbcPool(full.jdbcPool() / 2);
            case COMBINED -> halfThreads(full).withHeapMb(full.heapMb() / 2).withJdbcPool(full.jdbcPool() / 2);
        });
        return List.copyOf(nodes);
    }

    /** Half the worker threads, and half the queue too when {@link Vcn3Queue#HALF}. */
    private NodeCapacity halfThreads(NodeCapacity node) {
        return node.withHttpThreads(node.httpThreads() / 2)
                .withAcceptQueue(vcn3Queue.queueWithHalfThreads(node.acceptQueue()));
    }

    /** One line per scenario: "heap: VCN3 32 MB, 12 threads, queue 12, 10 JDBC". */
    public String describe(CapacityScenario scenario) {
        NodeCapacity third = capacities(scenario).get(2);
        return String.format(Locale.ROOT, "VCN1/VCN2 %d MB, %d threads, queue %d, %d JDBC; VCN3 %d MB, %d threads,"
                        + " queue %d, %d JDBC", full.heapMb(), full.httpThreads(), full.acceptQueue(), full.jdbcPool(),
                third.heapMb(), third.httpThreads(), third.acceptQueue(), third.jdbcPool());
    }

    /** CLI name of a scenario: baseline, heap, http-threads, jdbc, combined. */
    public static String key(CapacityScenario scenario) {
        return scenario.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The seed's table title for a scenario. */
    public static String title(CapacityScenario scenario) {
        return switch (scenario) {
            case BASELINE -> "Baseline (seed Table 10)";
            case HEAP -> "JVM Heap Space (seed Table 11)";
            case HTTP_THREADS -> "HTTP connection queue worker threads (seed Table 12)";
            case JDBC -> "JDBC database connection threads (seed Table 13)";
            case COMBINED -> "All Scenarios Combined (seed Table 14)";
        };
    }

    public static CapacityScenario parseScenario(String text) {
        for (CapacityScenario s : CapacityScenario.values()) {
            if (key(s).equalsIgnoreCase(text) || s.name().equalsIgnoreCase(text)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown scenario '" + text
                + "'; known scenarios: baseline, heap, http-threads, jdbc, combined");
    }
}
