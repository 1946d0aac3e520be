package io.loadwise.agent.os;

import io.loadwise.agent.metric.MetricSink;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.wire.MetricGroup;
import io.loadwise.wire.SeedMetric;
import org.hyperic.sigar.SigarException;
import org.hyperic.sigar.SigarProxy;

/** Load averages and CPU count (the load at which every CPU is busy) through SIGAR. */
public final class SigarLoadSource implements MetricSource {

    private final SigarProxy sigar;

    public SigarLoadSource(SigarProxy sigar) {
        this.sigar = sigar;
    }

    @Override
    public MetricGroup group() {
        return MetricGroup.OS;
    }

    @Override
    public void collect(MetricSink sink) throws SigarException {
        sink.put(SeedMetric.OS_LOAD_MAX, sigar.getCpuInfoList().length);
        double[] load = sigar.getLoadAverage(); // not implemented on Windows: throws, sampler logs once
        sink.put(SeedMetric.OS_LOAD_AVE1, load[0]);
        sink.put(SeedMetric.OS_LOAD_AVE5, load[1]);
        sink.put(SeedMetric.OS_LOAD_AVE15, load[2]);
    }
}
