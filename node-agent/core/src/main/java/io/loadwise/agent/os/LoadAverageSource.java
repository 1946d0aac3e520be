package io.loadwise.agent.os;

import io.loadwise.agent.metric.MetricSink;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.wire.MetricGroup;
import io.loadwise.wire.SeedMetric;
import java.io.IOException;
import java.lang.management.OperatingSystemMXBean;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Load averages and CPU count without SIGAR: all three averages from {@code /proc/loadavg} when given,
 * else only the 1-minute average the OperatingSystemMXBean offers.
 */
public final class LoadAverageSource implements MetricSource {

    private final OperatingSystemMXBean os;
    private final Path procLoadavg;

    /** @param procLoadavg {@code /proc/loadavg}, or {@code null} where there is none */
    public LoadAverageSource(OperatingSystemMXBean os, Path procLoadavg) {
        this.os = os;
        this.procLoadavg = procLoadavg;
    }

    @Override
    public MetricGroup group() {
        return MetricGroup.OS;
    }

    @Override
    public void collect(MetricSink sink) throws IOException {
        sink.put(SeedMetric.OS_LOAD_MAX, os.getAvailableProcessors());
        if (procLoadavg != null) {
            String[] f = Files.readString(procLoadavg).trim().split("\\s+");
            sink.put(SeedMetric.OS_LOAD_AVE1, Double.parseDouble(f[0]));
            sink.put(SeedMetric.OS_LOAD_AVE5, Double.parseDouble(f[1]));
            sink.put(SeedMetric.OS_LOAD_AVE15, Double.parseDouble(f[2]));
        } else {
            double load = os.getSystemLoadAverage(); // negative when unavailable (Windows)
            if (load >= 0) {
                sink.put(SeedMetric.OS_LOAD_AVE1, load);
            }
        }
    }
}
