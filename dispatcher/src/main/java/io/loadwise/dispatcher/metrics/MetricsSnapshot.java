package io.loadwise.dispatcher.metrics;

/**
 * Seed Table 2 figures for one interval (normally one second) of one cluster or node.
 *
 * @param epochMillis end of the interval
 * @param activeConnections TD_AVE_CONNS_ACT, at the end of the interval
 * @param activeRequests TD_AVE_RQSTS_ACT, at the end of the interval
 * @param throughput TD_AVE_THROUGHPUT, completed requests per second
 * @param failed TD_AVE_FAIL_RQSTS, failed requests per second
 * @param latencyMillis TD_AVE_RSPS_TIME, mean of completed requests
 * @param selections TD_AVE_SRV_SELS, node selections per second
 * @param selectionMillis TD_AVE_SRV_SEL, WT1 mean
 * @param connectWaitMillis TD_AVE_SRV_CONN_WAIT, WT2 mean
 * @param processingMillis TD_AVE_RQ_PROCTIME, PT mean
 * @param slowdown TD_AVE_SLOWDOWN, (WT1 + WT2 + PT) / PT, NaN when PT is 0
 * @param trafficInMBps TD_AVE_TRAF_IN
 * @param trafficOutMBps TD_AVE_TRAF_OUT
 * @param ejections TD_EJECTIONS, outlier ejections per second (not in the seed)
 * @param queueLength TD_QUEUE_LENGTH, requests waiting in the cluster's queue at the end of the interval (not in
 *     the seed)
 * @param queueMillis TD_QUEUE_TIME, mean time in the queue of the requests that left it (not in the seed)
 * @param retries TD_RETRIES, requests retried on another node per second (not in the seed)
 */
public record MetricsSnapshot(
        long epochMillis,
        int activeConnections,
        int activeRequests,
        double throughput,
        double failed,
        double latencyMillis,
        double selections,
        double selectionMillis,
        double connectWaitMillis,
        double processingMillis,
        double slowdown,
        double trafficInMBps,
        double trafficOutMBps,
        double ejections,
        int queueLength,
        double queueMillis,
        double retries) {

    private static final double BYTES_PER_MB = 1_000_000.0;

    /** A snapshot without queue and retries (code written before them). */
    public MetricsSnapshot(long epochMillis, int activeConnections, int activeRequests, double throughput,
            double failed, double latencyMillis, double selections, double selectionMillis, double connectWaitMillis,
            double processingMillis, double slowdown, double trafficInMBps, double trafficOutMBps, double ejections) {
        this(epochMillis, activeConnections, activeRequests, throughput, failed, latencyMillis, selections,
                selectionMillis, connectWaitMillis, processingMillis, slowdown, trafficInMBps, trafficOutMBps, ejections,
                0, Double.NaN, 0);
    }

    /** A snapshot without ejections (code written before outlier detection). */
    public MetricsSnapshot(long epochMillis, int activeConnections, int activeRequests, double throughput,
            double failed, double latencyMillis, double selections, double selectionMillis, double connectWaitMillis,
            double processingMillis, double slowdown, double trafficInMBps, double trafficOutMBps) {
        this(epochMillis, activeConnections, activeRequests, throughput, failed, latencyMillis, selections,
                selectionMillis, connectWaitMillis, processingMillis, slowdown, trafficInMBps, trafficOutMBps, 0, 0,
                Double.NaN, 0);
    }

    /**
     * The figures of the interval between two readings of the same counters.
     *
     * @param seconds length of the interval; rates are per second of it
     * @param epochMillis end of the interval, wall clock
     * @return rates per second, means in milliseconds ({@code NaN} when the interval had no sample),
     *     gauges as of {@code current}
     */
    public static MetricsSnapshot between(CounterReading previous, CounterReading current, double seconds,
            long epochMillis) {
        if (seconds <= 0) {
            throw new IllegalArgumentException("interval must be positive, got " + seconds + " s");
        }
        long completed = current.completed() - previous.completed();
        long selections = current.selections() - previous.selections();
        long connectWaits = current.connectWaits() - previous.connectWaits();
        double selectionMillis = meanMillis(current.selectionNanos() - previous.selectionNanos(), selections);
        double connectWaitMillis = meanMillis(current.connectWaitNanos() - previous.connectWaitNanos(), connectWaits);
        double processingMillis = meanMillis(current.processingNanos() - previous.processingNanos(), completed);
        return new MetricsSnapshot(
                epochMillis,
                current.activeConnections(),
                current.activeRequests(),
                completed / seconds,
                (current.failed() - previous.failed()) / seconds,
                meanMillis(current.latencyNanos() - previous.latencyNanos(), completed),
                selections / seconds,
                selectionMillis,
                connectWaitMillis,
                processingMillis,
                slowdown(selectionMillis, connectWaitMillis, processingMillis),
                (current.bytesIn() - previous.bytesIn()) / BYTES_PER_MB / seconds,
                (current.bytesOut() - previous.bytesOut()) / BYTES_PER_MB / seconds,
                (current.ejections() - previous.ejections()) / seconds,
                current.queueLength(),
                meanMillis(current.queueNanos() - previous.queueNanos(), current.queueWaits() - previous.queueWaits()),
                (current.retries() - previous.retries()) / seconds);
    }

    /**
     * Seed TD_AVE_SLOWDOWN, (WT1 + WT2 + PT) / PT. A wait with no sample in the interval counts as 0
     * (an HTTP per-connection cluster selects and connects less often than it completes requests).
     */
    static double slowdown(double wt1Millis, double wt2Millis, double ptMillis) {
        if (Double.isNaN(ptMillis) || ptMillis <= 0) {
            return Double.NaN;
        }
        double wt1 = Double.isNaN(wt1Millis) ? 0 : wt1Millis;
        double wt2 = Double.isNaN(wt2Millis) ? 0 : wt2Millis;
        return (wt1 + wt2 + ptMillis) / ptMillis;
    }

    private static double meanMillis(long sumNanos, long count) {
        return count <= 0 ? Double.NaN : sumNanos / 1e6 / count;
    }
}
