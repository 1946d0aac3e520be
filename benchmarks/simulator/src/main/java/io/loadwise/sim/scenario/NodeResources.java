package io.loadwise.sim.scenario;

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

    @Override
    public String toString() {
        return heapMb + " MB, " + workers + " threads, queue " + queue + ", " + jdbcPool + " JDBC";
    }
}
