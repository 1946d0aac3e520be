package io.loadwise.agent.os;

import com.sun.management.OperatingSystemMXBean;
import io.loadwise.agent.metric.MetricSink;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.wire.MetricGroup;

/**
 * Memory and swap from the JDK's OperatingSystemMXBean, for platforms without SIGAR or /proc. Its "free"
 * memory does not count reclaimable page cache, so used memory reads higher than SIGAR's.
 */
public final class JavaMemorySource implements MetricSource {

    private final OperatingSystemMXBean os;

    public JavaMemorySource(OperatingSystemMXBean os) {
        this.os = os;
    }

    @Override
    public MetricGroup group() {
        return MetricGroup.OS;
    }

    @Override
    public void collect(MetricSink sink) {
        MemoryFigures.put(sink, os.getTotalMemorySize(), os.getFreeMemorySize());
        MemoryFigures.putSwap(sink, os.getTotalSwapSpaceSize(), os.getFreeSwapSpaceSize());
    }
}
