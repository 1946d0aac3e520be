package io.loadwise.agent.jvm;

import io.loadwise.agent.metric.MetricGroup;
import io.loadwise.agent.metric.MetricSink;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.agent.metric.SeedMetric;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryUsage;

/**
 * Heap size and use. "Total" is the maximum the heap may grow to ({@code -Xmx}) when the JVM defines one,
 * else the committed size, so that JVM_HEAP_USED% says how close the node is to an OutOfMemoryError.
 */
public final class JvmHeapSource implements MetricSource {

    private final MemoryMXBean memory;

    public JvmHeapSource(MemoryMXBean memory) {
        this.memory = memory;
    }

    @Override
    public MetricGroup group() {
        return MetricGroup.JVM;
    }

    @Override
    public void collect(MetricSink sink) {
        MemoryUsage heap = memory.getHeapMemoryUsage();
        double total = heap.getMax() > 0 ? heap.getMax() : heap.getCommitted();
        double used = heap.getUsed();
        sink.putMegabytes(SeedMetric.JVM_HEAP_TOTAL, total);
        sink.putMegabytes(SeedMetric.JVM_HEAP_USED, used);
        sink.putMegabytes(SeedMetric.JVM_HEAP_AVAIL, total - used);
        sink.putPercent(SeedMetric.JVM_HEAP_USED_PCT, used, total);
        sink.putPercent(SeedMetric.JVM_HEAP_AVAIL_PCT, total - used, total);
    }
}
