package io.loadwise.agent.http;

import io.loadwise.agent.sample.MetricsSnapshot;
import io.loadwise.wire.FilterMetric;
import io.loadwise.wire.OrcaLoadReport;
import io.loadwise.wire.MetricGroup;
import io.loadwise.wire.SeedMetric;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/** The debugging page (seed NMAR-02b): every metric of the snapshot as an HTML table, grouped by source. */
final class HtmlReport {

    private HtmlReport() {
    }

    static String render(MetricsSnapshot snapshot) {
        StringBuilder out = new StringBuilder(8192);
        out.append("<!DOCTYPE html>\n<html><head><meta charset=\"UTF-8\"><title>Loadwise agent metrics</title>")
                .append("<style>body{font-family:sans-serif}td,th{padding:2px 8px;text-align:left}")
                .append("td.v{text-align:right}</style></head><body>\n<h1>Loadwise agent metrics</h1>\n<p>Sampled at ")
                .append(snapshot.timestampMillis() == 0 ? "(not yet)" : Instant.ofEpochMilli(snapshot.timestampMillis()).toString())
                .append("</p>\n<table>\n<tr><th>Metric</th><th>Value</th><th>Unit</th><th>Description</th></tr>\n");
        Map<String, Double> others = new TreeMap<>(snapshot.metrics());
        for (MetricGroup group : MetricGroup.values()) {
            out.append("<tr><th colspan=\"4\">").append(group.name()).append(" (source: ")
                    .append(escape(snapshot.sources().getOrDefault(group.key(), "unknown"))).append(")</th></tr>\n");
            for (SeedMetric metric : SeedMetric.values()) {
                Double v = metric.group() == group ? others.remove(metric.seedName()) : null;
                if (v != null) {
                    row(out, metric.seedName(), v, metric.unit(), metric.description());
                }
            }
        }
        out.append("<tr><th colspan=\"4\">Measured by the filter (not in the seed)</th></tr>\n");
        for (FilterMetric metric : FilterMetric.values()) {
            Double v = others.remove(metric.metricName());
            if (v != null) {
                row(out, metric.metricName(), v, metric.unit(), metric.description());
            }
        }
        Double utilization = others.remove(OrcaLoadReport.APP_UTILIZATION);
        if (utilization != null) {
            row(out, OrcaLoadReport.APP_UTILIZATION, utilization, "%",
                    "Application Utilization: mean requests in flight over capacity (last second; ORCA's)");
        }
        if (!others.isEmpty()) {
            out.append("<tr><th colspan=\"4\">Operator-mapped (not in the seed)</th></tr>\n");
            others.forEach((name, v) -> row(out, name, v, "", ""));
        }
        return out.append("</table>\n</body></html>\n").toString();
    }

    private static void row(StringBuilder out, String name, double value, String unit, String description) {
        out.append("<tr><td>").append(escape(name)).append("</td><td class=\"v\">")
                .append(String.format(java.util.Locale.ROOT, "%.2f", value)).append("</td><td>")
                .append(escape(unit)).append("</td><td>").append(escape(description)).append("</td></tr>\n");
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
