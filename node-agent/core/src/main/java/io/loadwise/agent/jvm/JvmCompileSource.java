package io.loadwise.agent.jvm;

import io.loadwise.agent.metric.MetricSink;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.wire.MetricGroup;
import io.loadwise.wire.SeedMetric;
import java.lang.management.CompilationMXBean;

/** JIT compile time (ms since JVM start); absent on JVMs without a JIT or without time monitoring. */
public final class JvmCompileSource implements MetricSource {

    private final CompilationMXBean compilation;

    /** @param compilation may be {@code null} (no JIT), then nothing is reported */
    public JvmCompileSource(CompilationMXBean compilation) {
        this.compilation = compilation;
    }

    @Override
    public MetricGroup group() {
        return MetricGroup.JVM;
    }

    @Override
    public void collect(MetricSink sink) {
        if (compilation != null && compilation.isCompilationTimeMonitoringSupported()) {
            sink.put(SeedMetric.JVM_COMPILE_TIME, compilation.getTotalCompilationTime());
        }
    }
}
