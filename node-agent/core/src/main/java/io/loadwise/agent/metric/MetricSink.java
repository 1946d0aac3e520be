package io.loadwise.agent.metric;

import io.loadwise.wire.SeedMetric;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Collects one sample's values. A value that is not finite means "not measured" and is dropped, so a
 * metric a source cannot measure is absent from the sample instead of being reported as 0.
 */
public final class MetricSink {

    /** Bytes per MB as the seed uses it (MiB). */
    public static final double BYTES_PER_MB = 1024.0 * 1024.0;

    private final Map<String, Double> values = new LinkedHashMap<>();

    public void put(SeedMetric metric, double value) {
        put(metric.seedName(), value);
    }

    /** Stores a value under any name (operator-mapped JMX metrics need not be seed metrics). */
    public void put(String name, double value) {
        if (Double.isFinite(value)) {
            values.put(name, value);
        }
    }

    /** Stores {@code 100 * part / whole}, or nothing when {@code whole} is not positive. */
    public void putPercent(SeedMetric metric, double part, double whole) {
        if (whole > 0) {
            put(metric, 100.0 * part / whole);
        }
    }

    public void putMegabytes(SeedMetric metric, double bytes) {
        put(metric, bytes / BYTES_PER_MB);
    }

    /** The values collected so far (live view, in insertion order). */
    public Map<String, Double> values() {
        return values;
    }
}
