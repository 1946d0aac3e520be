package io.loadwise.bench.sweep;

import io.loadwise.node.NodeCapacity;
import io.loadwise.scenario.CapacityScenario;
import io.loadwise.scenario.Vcn3Queue;
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

    /** Capacities of VCN1..3 in {@code scenario}: which resource it halves is the scenario's to say. */
    public List<NodeCapacity> capacities(CapacityScenario scenario) {
        return full.nodesIn(scenario, vcn3Queue);
    }

    /** One line per scenario: "heap: VCN3 32 MB, 12 threads, queue 12, 10 JDBC". */
    public String describe(CapacityScenario scenario) {
        NodeCapacity vcn3 = full.vcn3In(scenario, vcn3Queue);
        return String.format(Locale.ROOT, "VCN1/VCN2 %d MB, %d threads, queue %d, %d JDBC; VCN3 %d MB, %d threads,"
                        + " queue %d, %d JDBC", full.heapMb(), full.httpThreads(), full.acceptQueue(), full.jdbcPool(),
                vcn3.heapMb(), vcn3.httpThreads(), vcn3.acceptQueue(), vcn3.jdbcPool());
    }
}
