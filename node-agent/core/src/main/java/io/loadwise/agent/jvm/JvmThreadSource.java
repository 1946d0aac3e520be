package io.loadwise.agent.jvm;

import io.loadwise.agent.metric.MetricSink;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.wire.MetricGroup;
import io.loadwise.wire.SeedMetric;
import java.lang.management.ThreadMXBean;

/** Live and daemon thread counts. */
public final class JvmThreadSource implements MetricSource {

    private final ThreadMXBean threads;

    public JvmThreadSource(ThreadMXBean threads) {
        this.threads = threads;
    }

    @Override
    public MetricGroup group() {
        return MetricGroup.JVM;
    }

    @Override
    public void collect(MetricSink sink) {
        sink.put(SeedMetric.JVM_THREADS, threads.getThreadCount());
        sink.put(SeedMetric.JVM_THREADS_DAEMONS, threads.getDaemonThreadCount());
    }
}
