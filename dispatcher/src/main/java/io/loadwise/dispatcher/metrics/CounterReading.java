package io.loadwise.dispatcher.metrics;

/** One reading of {@link TrafficCounters}; cumulative values since start, gauges as of the reading. */
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
        long bytesOut) {

    public static final CounterReading ZERO = new CounterReading(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
}
