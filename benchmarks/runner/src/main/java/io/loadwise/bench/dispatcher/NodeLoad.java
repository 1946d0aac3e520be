package io.loadwise.bench.dispatcher;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadwise.wire.GcMetric;
import io.loadwise.wire.SeedMetric;

/**
 * The three resources the capacity scenarios halve on VCN3, as a node's agent reports them through the
 * dispatcher: heap used, HTTP worker threads busy and JDBC connections in use, each in percent. A
 * value the agent did not report is NaN (TCP rows poll no agent at all).
 */
public record NodeLoad(double heapPercent, double threadsPercent, double jdbcPercent) {

    public static final NodeLoad UNKNOWN = new NodeLoad(Double.NaN, Double.NaN, Double.NaN);

    /** From a {@code GET /api/clusters/{c}/nodes/{n}/metrics} answer; UNKNOWN while it has no sample. */
    static NodeLoad of(JsonNode nodeMetrics) {
        JsonNode metrics = nodeMetrics.path("sample").path("metrics");
        if (!metrics.isObject()) {
            return UNKNOWN;
        }
        return new NodeLoad(value(metrics, SeedMetric.JVM_HEAP_USED_PCT),
                value(metrics, SeedMetric.AMX_CONNS_Q_THRBSY_PCT), value(metrics, SeedMetric.AMX_JDBC_ACTC_PCT));
    }

    /** The queue use in percent from the same answer, NaN while unknown: kept out of the peak figures. */
    static double queuePercent(JsonNode nodeMetrics) {
        JsonNode metrics = nodeMetrics.path("sample").path("metrics");
        return metrics.isObject() ? value(metrics, SeedMetric.AMX_CONNS_Q_USED_PCT) : Double.NaN;
    }

    /** A GC figure from the same answer ({@code JVM_GC_TIME%}, {@code JVM_OLD_AFTER_GC%}), NaN while unknown. */
    static double gcPercent(JsonNode nodeMetrics, GcMetric metric) {
        JsonNode v = nodeMetrics.path("sample").path("metrics").path(metric.metricName());
        return v.isNumber() ? v.asDouble() : Double.NaN;
    }

    /** Per resource, the larger of the two (NaN only when both are). */
    public NodeLoad max(NodeLoad other) {
        return new NodeLoad(max(heapPercent, other.heapPercent), max(threadsPercent, other.threadsPercent),
                max(jdbcPercent, other.jdbcPercent));
    }

    private static double max(double a, double b) {
        return Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.max(a, b);
    }

    private static double value(JsonNode metrics, SeedMetric metric) {
        JsonNode v = metrics.path(metric.seedName());
        return v.isNumber() ? v.asDouble() : Double.NaN;
    }
}
