package io.loadwise.agent.jvm;

import io.loadwise.agent.metric.MetricSink;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.wire.MetricGroup;
import io.loadwise.wire.SeedMetric;
import java.lang.management.GarbageCollectorMXBean;
import java.util.List;

/** Total time spent in garbage collection, summed over all collectors (ms since JVM start). */
public final class JvmGcSource implements MetricSource {

    private final List<GarbageCollectorMXBean> collectors;

    public JvmGcSource(List<GarbageCollectorMXBean> collectors) {
        this.collectors = List.copyOf(collectors);
    }

    @Override
    public MetricGroup group() {
        return MetricGroup.JVM;
    }

    @Override
    public void collect(MetricSink sink) {
        long total = 0;
        boolean known = false;
        for (GarbageCollectorMXBean gc : collectors) {
            long time = gc.getCollectionTime();
            if (time >= 0) { // -1 means this collector does not report time
                total += time;
                known = true;
            }
        }
        if (known) {
            sink.put(SeedMetric.JVM_GC_TIME, total);
        }
    }
}
