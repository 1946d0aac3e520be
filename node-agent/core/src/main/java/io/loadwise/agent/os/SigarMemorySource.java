package io.loadwise.agent.os;

import io.loadwise.agent.metric.MetricSink;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.wire.MetricGroup;
import io.loadwise.wire.SeedMetric;
import org.hyperic.sigar.Mem;
import org.hyperic.sigar.SigarException;
import org.hyperic.sigar.SigarProxy;
import org.hyperic.sigar.Swap;

/**
 * Physical memory and swap through SIGAR. "Used" memory excludes buffers and page cache (SIGAR's
 * "actual" figures), since the kernel gives those back on demand.
 */
public final class SigarMemorySource implements MetricSource {

    private final SigarProxy sigar;

    public SigarMemorySource(SigarProxy sigar) {
        this.sigar = sigar;
    }

    @Override
    public MetricGroup group() {
        return MetricGroup.OS;
    }

    @Override
    public void collect(MetricSink sink) throws SigarException {
        Mem mem = sigar.getMem();
        MemoryFigures.put(sink, mem.getTotal(), mem.getActualFree());
        Swap swap = sigar.getSwap();
        MemoryFigures.putSwap(sink, swap.getTotal(), swap.getFree());
        sink.put(SeedMetric.OS_SWAP_PAGEINS, MemoryFigures.pagesToMegabytes(swap.getPageIn()));
        sink.put(SeedMetric.OS_SWAP_PAGEOUTS, MemoryFigures.pagesToMegabytes(swap.getPageOut()));
    }
}
