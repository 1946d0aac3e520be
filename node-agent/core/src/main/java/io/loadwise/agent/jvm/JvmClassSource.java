package io.loadwise.agent.jvm;

import io.loadwise.agent.metric.MetricSink;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.wire.MetricGroup;
import io.loadwise.wire.SeedMetric;
import java.lang.management.ClassLoadingMXBean;

/** Currently loaded classes. */
public final class JvmClassSource implements MetricSource {

    private final ClassLoadingMXBean classLoading;

    public JvmClassSource(ClassLoadingMXBean classLoading) {
        this.classLoading = classLoading;
    }

    @Override
    public MetricGroup group() {
        return MetricGroup.JVM;
    }

    @Override
    public void collect(MetricSink sink) {
        sink.put(SeedMetric.JVM_CLASS_COUNT, classLoading.getLoadedClassCount());
    }
}
