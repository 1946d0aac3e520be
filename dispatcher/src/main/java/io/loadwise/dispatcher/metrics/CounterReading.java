package io.loadwise.dispatcher.metrics;

/**
 * One reading of {@link TrafficCounters}; cumulative values since start, gauges as of the reading.
 *
 * @param ejections times outlier detection ejected the node (of a cluster: any of its nodes)
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
        long ejections) {

    public static final CounterReading ZERO = new CounterReading(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    /** A reading without ejections (code written before outlier detection). */
    public CounterReading(int activeConnections, int activeRequests, long connections, long completed, long failed,
            long selections, long selectionNanos, long connectWaits, long connectWaitNanos, long processingNanos,
            long latencyNanos, long bytesIn, long bytesOut) {
        this(activeConnections, activeRequests, connections, completed, failed, selections, selectionNanos,
                connectWaits, connectWaitNanos, processingNanos, latencyNanos, bytesIn, bytesOut, 0);
    }
}
