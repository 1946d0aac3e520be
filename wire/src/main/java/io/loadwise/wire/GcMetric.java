package io.loadwise.wire;

import java.util.HashMap;
import java.util.Map;

/**
 * What the agent reports of garbage collection (not in the seed, whose only GC figure is {@link
 * SeedMetric#JVM_GC_TIME}, a total since the JVM started): the share of the last second spent
 * collecting, the longest collection that ended in it, whether the sample came late while collections
 * ran, and how full the old generation stays after a collection. A JVM in a long full collection, or one
 * whose old generation stays full after each (an OutOfMemoryError on its way), shows here before its
 * queue or heap figures catch up. A figure the JVM does not give is absent, never 0.
 */
public enum GcMetric {
    JVM_GC_TIME_PCT("JVM_GC_TIME%", "%", "JVM Time in GC over the Last Second (%)"),
    JVM_GC_MAX_MS("JVM_GC_MAX_MS", "ms", "JVM Longest Collection Ended in the Last Sample Interval (ms)"),
    JVM_GC_OVERRUN("JVM_GC_OVERRUN", "flag", "JVM Sample Late While Collecting (1) or Not (0)"),
    JVM_OLD_AFTER_GC_PCT("JVM_OLD_AFTER_GC%", "%", "JVM Old Generation Used After the Last Collection (%)");

    private static final Map<String, GcMetric> BY_NAME = new HashMap<>();

    static {
        for (GcMetric m : values()) {
            BY_NAME.put(m.metricName, m);
        }
    }

    private final String metricName;
    private final String unit;
    private final String description;

    GcMetric(String metricName, String unit, String description) {
        this.metricName = metricName;
        this.unit = unit;
        this.description = description;
    }

    /** The name in the agent's sample and on the wire, e.g. {@code "JVM_GC_TIME%"}. */
    public String metricName() {
        return metricName;
    }

    /** {@code %}, {@code ms} or {@code flag}. */
    public String unit() {
        return unit;
    }

    public String description() {
        return description;
    }

    /** The metric with this name, or {@code null}. */
    public static GcMetric byName(String name) {
        return BY_NAME.get(name);
    }
}
