package io.loadwise.agent.os;

import com.sun.management.OperatingSystemMXBean;
import io.loadwise.agent.metric.MetricSink;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.wire.MetricGroup;
import io.loadwise.wire.SeedMetric;

/**
 * System CPU load from the JDK's OperatingSystemMXBean, for platforms with neither SIGAR nor /proc. It
 * cannot split user/system/iowait, so only used and available are reported.
 */
public final class JavaCpuSource implements MetricSource {

    private final OperatingSystemMXBean os;

    public JavaCpuSource(OperatingSystemMXBean os) {
        this.os = os;
    }

    @Override
    public MetricGroup group() {
        return MetricGroup.OS;
    }

    @Override
    public void collect(MetricSink sink) {
        double load = os.getCpuLoad(); // negative when not available yet
        if (load >= 0) {
            sink.put(SeedMetric.OS_CPU_USED_PCT, 100 * load);
            sink.put(SeedMetric.OS_CPU_AVAIL_PCT, 100 * (1 - load));
        }
    }
}
