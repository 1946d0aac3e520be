package io.loadwise.agent.os;

import io.loadwise.agent.metric.MetricSink;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.wire.MetricGroup;
import io.loadwise.wire.SeedMetric;
import org.hyperic.sigar.CpuPerc;
import org.hyperic.sigar.SigarException;
import org.hyperic.sigar.SigarProxy;

/**
 * CPU split through SIGAR. SIGAR computes the split since its previous call on the same instance, which
 * is the previous sample. "Used" is the time the CPUs executed something (neither idle nor waiting for
 * I/O); "available" is the rest.
 */
public final class SigarCpuSource implements MetricSource {

    private final SigarProxy sigar;

    public SigarCpuSource(SigarProxy sigar) {
        this.sigar = sigar;
    }

    @Override
    public MetricGroup group() {
        return MetricGroup.OS;
    }

    @Override
    public void collect(MetricSink sink) throws SigarException {
        CpuPerc cpu = sigar.getCpuPerc();
        double idle = 100 * cpu.getIdle();
        double wait = 100 * cpu.getWait();
        if (idle + wait <= 0 && cpu.getUser() + cpu.getSys() <= 0) {
            return; // first call: SIGAR has no previous ticks yet and reports all zeros
        }
        sink.put(SeedMetric.OS_CPU_USER_PCT, 100 * (cpu.getUser() + cpu.getNice()));
        sink.put(SeedMetric.OS_CPU_SYSTEM_PCT, 100 * (cpu.getSys() + cpu.getIrq() + cpu.getSoftIrq()));
        sink.put(SeedMetric.OS_CPU_IOWAIT_PCT, wait);
        sink.put(SeedMetric.OS_CPU_IDLE_PCT, idle);
        sink.put(SeedMetric.OS_CPU_USED_PCT, 100 - idle - wait);
        sink.put(SeedMetric.OS_CPU_AVAIL_PCT, idle + wait);
    }
}
