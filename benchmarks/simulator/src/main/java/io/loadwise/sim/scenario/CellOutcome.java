package io.loadwise.sim.scenario;

import io.loadwise.scenario.CapacityScenario;

/**
 * One simulated run of one sweep cell (scenario x row x seed), in the sweep's terms.
 *
 * @param samples        requests completed or failed (JMeter's samples)
 * @param failed         failed samples: refused by a node, no node chosen, out of heap or no JDBC connection in time
 * @param refused        refused by a full node (workers + queue busy)
 * @param outOfMemory    failed because a new session did not fit in the heap
 * @param jdbcTimeouts   failed after waiting the longest JDBC wait
 * @param noNode         the policy chose no node (the dispatcher's 503)
 * @param throughput     samples per second from the first request to the last answer (JMeter's throughput)
 * @param meanLatencyMs  mean response time of all samples
 * @param selections     connection placements per node
 * @param failuresByNode failures per node (no-node failures are on none)
 * @param peakHeapPercent    per node, the highest heap use its agent reported
 * @param peakThreadsPercent per node, the highest share of busy workers its agent reported
 * @param peakJdbcPercent    per node, the highest share of JDBC connections in use its agent reported
 */
public record CellOutcome(CapacityScenario scenario, SweepRow row, long seed, long samples, long failed, long refused,
        long outOfMemory, long jdbcTimeouts, long noNode, double throughput, double meanLatencyMs, long[] selections,
        long[] failuresByNode, double[] peakHeapPercent, double[] peakThreadsPercent, double[] peakJdbcPercent) {

    public double failedPercent() {
        return samples == 0 ? 0 : 100.0 * failed / samples;
    }

    public double selectionShare(int node) {
        long total = 0;
        for (long s : selections) {
            total += s;
        }
        return total == 0 ? 0 : (double) selections[node] / total;
    }
}
