package io.loadwise.node;

import io.loadwise.scenario.CapacityScenario;
import io.loadwise.scenario.Vcn3Queue;
import java.util.List;

/**
 * A node's capacity knobs, the columns of the seed's Table 9: JVM heap ({@code -Xmx}), HTTP worker
 * threads (Tomcat {@code maxThreads}), HTTP request queue ({@code maxQueueSize}) and JDBC pool size
 * ({@code maxTotal} of the container's DataSource).
 */
public record NodeCapacity(int heapMb, int httpThreads, int acceptQueue, int jdbcPool) {

    /** Table 9's full-capacity node: 512 MB, 12 threads, queue 12, 10 connections. */
    public static final NodeCapacity BASELINE = new NodeCapacity(512, 12, 12, 10);

    public NodeCapacity {
        requireAtLeast("heapMb", heapMb, 32);
        requireAtLeast("httpThreads", httpThreads, 1);
        requireAtLeast("acceptQueue", acceptQueue, 1);
        requireAtLeast("jdbcPool", jdbcPool, 1);
    }

    /**
     * VCN3's capacity in {@code scenario} when VCN1 and VCN2 have this one: the heap, HTTP worker threads and JDBC
     * pool halved where the scenario says, the request queue with the threads as {@code vcn3Queue} says. No floor:
     * a half below the minimums above is an error that names the knob, not a node quietly bigger than half.
     */
    public NodeCapacity vcn3In(CapacityScenario scenario, Vcn3Queue vcn3Queue) {
        boolean halfThreads = scenario.halvesHttpThreads();
        return new NodeCapacity(scenario.halvesHeap() ? heapMb / 2 : heapMb,
                halfThreads ? httpThreads / 2 : httpThreads,
                halfThreads ? vcn3Queue.queueWithHalfThreads(acceptQueue) : acceptQueue,
                scenario.halvesJdbcPool() ? jdbcPool / 2 : jdbcPool);
    }

    /** VCN1, VCN2 and VCN3 in {@code scenario}, this capacity being the full nodes'. */
    public List<NodeCapacity> nodesIn(CapacityScenario scenario, Vcn3Queue vcn3Queue) {
        return CapacityScenario.nodes(this, vcn3In(scenario, vcn3Queue));
    }

    public NodeCapacity withHeapMb(int value) {
        return new NodeCapacity(value, httpThreads, acceptQueue, jdbcPool);
    }

    public NodeCapacity withHttpThreads(int value) {
        return new NodeCapacity(heapMb, value, acceptQueue, jdbcPool);
    }

    public NodeCapacity withAcceptQueue(int value) {
        return new NodeCapacity(heapMb, httpThreads, value, jdbcPool);
    }

    public NodeCapacity withJdbcPool(int value) {
        return new NodeCapacity(heapMb, httpThreads, acceptQueue, value);
    }

    private static void requireAtLeast(String name, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be at least " + min + ", got " + value);
        }
    }
}
