package io.loadwise.dispatcher.metrics;

/**
 * One reading of {@link TrafficCounters}; cumulative values since start, gauges as of the reading.
 *
 * @param ejections times outlier detection ejected the node (of a cluster: any of its nodes)
 * @param queueLength requests waiting in the cluster's queue (a gauge; 0 for a node)
 * @param queueWaits requests that stopped waiting in the queue
 * @param queueNanos their time in the queue, summed
 * @param retries requests sent again to another node after a failure before any response byte
 */
public record CounterReading(
        int activeConnections,
        int activeRequests,
        long connections,
        long completed,
        long failed,
        long selections,
        long selectionNanos,
        long connectWaits,
        long connectWaitNanos,
        long processingNanos,
        long latencyNanos,
        long bytesIn,
        long bytesOut,
        long ejections,
        int queueLength,
        long queueWaits,
        long queueNanos,
        long retries) {

    public static final CounterReading ZERO = new CounterReading(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    /** A reading without queue and retries (code written before them). */
    public CounterReading(int activeConnections, int activeRequests, long connections, long completed, long failed,
            long selections, long selectionNanos, long connectWaits, long connectWaitNanos, long processingNanos,
            long latencyNanos, long bytesIn, long bytesOut, long ejections) {
        this(activeConnections, activeRequests, connections, completed, failed, selections, selectionNanos,
                connectWaits, connectWaitNanos, processingNanos, latencyNanos, bytesIn, bytesOut, ejections, 0, 0, 0, 0);
    }

    /** A reading without ejections (code written before outlier detection). */
    public CounterReading(int activeConnections, int activeRequests, long connections, long completed, long failed,
            long selections, long selectionNanos, long connectWaits, long connectWaitNanos, long processingNanos,
            long latencyNanos, long bytesIn, long bytesOut) {
        this(activeConnections, activeRequests, connections, completed, failed, selections, selectionNanos,
                connectWaits, connectWaitNanos, processingNanos, latencyNanos, bytesIn, bytesOut, 0);
    }
}
