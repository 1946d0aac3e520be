package io.loadwise.wire;

import java.util.HashMap;
import java.util.Map;

/**
 * Load the agent's servlet filter measures itself, on every server (not in the seed, whose tables 3-5 are
 * {@link SeedMetric}): what mod_cluster's {@code BusyConnectorsLoadMetric} and
 * {@code RequestCountLoadMetric} read from the connector, seen from inside the application instead.
 * Rate, mean and p95 cover the last second. Names are plain ({@code [A-Z0-9_]}, at most 20 characters) so
 * they are also valid rrd4j data source names.
 */
public enum FilterMetric {
    APP_RQST_INFLIGHT("APP_RQST_INFLIGHT", "count", "Application Requests in Flight"),
    APP_RQST_RATE("APP_RQST_RATE", "req/s", "Application Requests per Second (last second)"),
    APP_RQST_ERR_RATE("APP_RQST_ERR_RATE", "req/s", "Application Errors per Second (status >= 500, last second)"),
    APP_RQST_AVETIME("APP_RQST_AVETIME", "ms", "Application Mean Service Time (ms, last second)"),
    APP_RQST_P95TIME("APP_RQST_P95TIME", "ms", "Application 95th-percentile Service Time (ms, last second)"),
    APP_CAPACITY("APP_CAPACITY", "count", "Application Concurrent-request Capacity");

    private static final Map<String, FilterMetric> BY_NAME = new HashMap<>();

    static {
        for (FilterMetric m : values()) {
            BY_NAME.put(m.metricName, m);
        }
    }

    private final String metricName;
    private final String unit;
    private final String description;

    FilterMetric(String metricName, String unit, String description) {
        this.metricName = metricName;
        this.unit = unit;
        this.description = description;
    }

    /** The name in the agent's sample and on the wire, e.g. {@code "APP_RQST_RATE"}. */
    public String metricName() {
        return metricName;
    }

    /** {@code count}, {@code req/s} or {@code ms}. */
    public String unit() {
        return unit;
    }

    public String description() {
        return description;
    }

    /** The metric with this name, or {@code null}. */
    public static FilterMetric byName(String name) {
        return BY_NAME.get(name);
    }
}
