package io.loadwise.sim.scenario;

import io.loadwise.scenario.CapacityScenario;
import io.loadwise.scenario.Vcn3Queue;
import java.util.List;

/**
 * What bounds one simulated application server, as {@code bench sweep}'s node capacity does.
 *
 * @param heapMb   maximum heap; sessions and the base heap fill it, beyond it a request fails (OutOfMemoryError)
 * @param workers  HTTP worker threads (Tomcat maxThreads)
 * @param queue    requests that may wait for a worker (Tomcat maxQueueSize); beyond workers + queue the node refuses
 * @param jdbcPool JDBC connections; a request waits for one, bounded, else fails
 */
public record NodeResources(int heapMb, int workers, int queue, int jdbcPool) {

    public NodeResources {
        if (heapMb < 1 || workers < 1 || queue < 0 || jdbcPool < 1) {
            throw new IllegalArgumentException("node resources: heap >= 1 MB, workers >= 1, queue >= 0 and JDBC pool >= 1,"
                    + " got " + heapMb + " MB, " + workers + ", " + queue + ", " + jdbcPool);
        }
    }

    /**
     * VCN3's resources in {@code scenario} when VCN1 and VCN2 have these: halved where the scenario says, the worker
     * threads and the JDBC pool at least 1 (a modelled node has no other minimum to hold them to), the queue halved
     * with the threads when {@code vcn3Queue} is {@link Vcn3Queue#HALF}.
     */
    public NodeResources vcn3In(CapacityScenario scenario, Vcn3Queue vcn3Queue) {
        boolean halfThreads = scenario.halvesHttpThreads();
        return new NodeResources(scenario.halvesHeap() ? heapMb / 2 : heapMb,
                halfThreads ? Math.max(1, workers / 2) : workers,
                halfThreads ? vcn3Queue.queueWithHalfThreads(queue) : queue,
                scenario.halvesJdbcPool() ? Math.max(1, jdbcPool / 2) : jdbcPool);
    }

    /** The nodes VCN1, VCN2, VCN3 of {@code scenario}, these being the full nodes' resources. */
    public List<NodeResources> nodesIn(CapacityScenario scenario, Vcn3Queue vcn3Queue) {
        return CapacityScenario.nodes(this, vcn3In(scenario, vcn3Queue));
    }

    @Override
    public String toString() {
        return heapMb + " MB, " + workers + " threads, queue " + queue + ", " + jdbcPool + " JDBC";
    }
}
