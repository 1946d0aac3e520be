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
        double trafficOutMBps) {
}
