package io.loadwise.dispatcher.control;

/**
 * The node monitor's figures for one agent (seed Table 6), plus the reports it had to ignore.
 *
 * @param lastPollMillis NODE_NMA_RSPS_TIME: how long the last successful poll took; NaN before the first
 * @param availabilityPercent NODE_AVAILABILITY%: successful polls over all polls; NaN before the first
 * @param malformedReports reports (header or poll body) that could not be parsed
 * @param lastError the last poll or parse error, or {@code null} after a success
 */
public record AgentPolling(long pollsOk, long pollsFailed, long piggybackReports, long malformedReports,
        String lastError, double lastPollMillis, double availabilityPercent) {
}
