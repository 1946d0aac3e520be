package io.loadwise.bench.sweep;

import io.loadwise.bench.dispatcher.NodeLoad;
import java.util.Map;

/**
 * One sweep cell's figures: JMeter's own (from its JTL) and the dispatcher's Table 8 (from its API).
 * Stored as {@code cells/<scenario>/<row>/run-<repeat>.json}; a run with a file and no error is done and is
 * skipped on resume.
 *
 * @param scenario        scenario key (baseline, heap, ...)
 * @param row             policy row key (tcp-random, ...)
 * @param error           null, or why the cell could not run (its figures are then zero)
 * @param samples         JMeter samples
 * @param failed          JMeter samples with success=false
 * @param failedPercent   failed / samples x 100
 * @param throughput      completed (successful) samples per second over the run
 * @param latencyMs       JMeter mean elapsed time
 * @param p50Ms           JMeter median elapsed
 * @param p90Ms           JMeter 90th percentile
 * @param p99Ms           JMeter 99th percentile
 * @param failuresByCode  JMeter failures per response code
 * @param lbSamples       dispatcher samples (Table 8)
 * @param lbFailed        dispatcher failed requests
 * @param activeConns     mean active client connections per second while JMeter ran
 * @param lbLatencyMs     dispatcher mean latency
 * @param wt1Ms           mean node-selection wait
 * @param wt2Ms           mean backend-connection wait
 * @param ptMs            mean processing time
 * @param slowdown        (WT1+WT2+PT)/PT
 * @param nodeSels        node selections per second
 * @param selections      total selections per node
 * @param agentLive       whether the dispatcher held agent samples for every node at the end
 * @param startedAt       ISO time the cell started
 * @param wallSeconds     wall time of the whole cell (start to everything stopped)
 * @param loadSeconds     JMeter's first-sample-to-last-sample span
 * @param peakLoad        per node, the highest heap/threads/JDBC use its agent reported (HTTP rows)
 * @param failuresByNode  per node, the requests the dispatcher failed on it (refused, reset, timed out, its own 5xx),
 *                        plus those the node answered 503 for want of a JDBC connection (counted in its log:
 *                        the dispatcher relays a node's own error answers without counting them)
 * @param repeat          which repeat of the cell this run is (1-based; 0 in results from before repeats)
 * @param position        the run's place in the sweep's randomised order (1-based; 0 before repeats)
 * @param loadBefore      the machine's load averages just before the run (null before they were recorded)
 * @param loadAfter       the machine's load averages just after the run
 */
public record CellResult(String scenario, String row, String error, long samples, long failed, double failedPercent,
        double throughput, double latencyMs, long p50Ms, long p90Ms, long p99Ms, Map<String, Long> failuresByCode,
        long lbSamples, long lbFailed, double activeConns, double lbLatencyMs, double wt1Ms, double wt2Ms,
        double ptMs, double slowdown, double nodeSels, Map<String, Long> selections, boolean agentLive,
        String startedAt, double wallSeconds, double loadSeconds, Map<String, NodeLoad> peakLoad,
        Map<String, Long> failuresByNode, int repeat, int position, LoadAverage loadBefore, LoadAverage loadAfter) {

    /** {@code node}'s share of the node selections, in percent (0 when nothing was selected). */
    public double selectionShare(String node) {
        long total = selections.values().stream().mapToLong(Long::longValue).sum();
        return total == 0 ? 0 : selections.getOrDefault(node, 0L) * 100.0 / total;
    }

    /** {@code node}'s peak heap/threads/JDBC use, {@link NodeLoad#UNKNOWN} when its agent reported none. */
    public NodeLoad peakLoad(String node) {
        return peakLoad == null ? NodeLoad.UNKNOWN : peakLoad.getOrDefault(node, NodeLoad.UNKNOWN);
    }

    /** The dispatcher's failures on {@code node} (0 for cells recorded before they were counted). */
    public long failuresOn(String node) {
        return failuresByNode == null ? 0 : failuresByNode.getOrDefault(node, 0L);
    }

    /** This result as run {@code repeat} at {@code position} of the sweep's order, with the load around it. */
    public CellResult withRun(int repeat, int position, LoadAverage before, LoadAverage after) {
        return new CellResult(scenario, row, error, samples, failed, failedPercent, throughput, latencyMs, p50Ms, p90Ms,
                p99Ms, failuresByCode, lbSamples, lbFailed, activeConns, lbLatencyMs, wt1Ms, wt2Ms, ptMs, slowdown,
                nodeSels, selections, agentLive, startedAt, wallSeconds, loadSeconds, peakLoad, failuresByNode, repeat,
                position, before, after);
    }

    /** A cell that could not run. */
    public static CellResult failed(String scenario, String row, String error, String startedAt, double wallSeconds) {
        return new CellResult(scenario, row, error, 0, 0, 0, 0, 0, 0, 0, 0, Map.of(), 0, 0, 0, 0, 0, 0, 0, 0, 0,
                Map.of(), false, startedAt, wallSeconds, 0, Map.of(), Map.of(), 0, 0, null, null);
    }
}
