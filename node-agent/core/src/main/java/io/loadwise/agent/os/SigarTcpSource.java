package io.loadwise.agent.os;

import io.loadwise.agent.metric.MetricSink;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.wire.MetricGroup;
import io.loadwise.wire.SeedMetric;
import org.hyperic.sigar.SigarException;
import org.hyperic.sigar.SigarProxy;
import org.hyperic.sigar.Tcp;

/** The kernel's TCP MIB counters through SIGAR (counts since boot; CURR-ESTAB is current). */
public final class SigarTcpSource implements MetricSource {

    private final SigarProxy sigar;

    public SigarTcpSource(SigarProxy sigar) {
        this.sigar = sigar;
    }

    @Override
    public MetricGroup group() {
        return MetricGroup.OS;
    }

    @Override
    public void collect(MetricSink sink) throws SigarException {
        Tcp tcp = sigar.getTcp();
        sink.put(SeedMetric.NET_TCP_ACT_OPENS, tcp.getActiveOpens());
        sink.put(SeedMetric.NET_TCP_PASV_OPENS, tcp.getPassiveOpens());
        sink.put(SeedMetric.NET_TCP_ATT_FAILS, tcp.getAttemptFails());
        sink.put(SeedMetric.NET_TCP_ESTAB_RESETS, tcp.getEstabResets());
        sink.put(SeedMetric.NET_TCP_CUR_ESTAB, tcp.getCurrEstab());
        sink.put(SeedMetric.NET_TCP_IN_SEGS, tcp.getInSegs());
        sink.put(SeedMetric.NET_TCP_OUT_SEGS, tcp.getOutSegs());
        sink.put(SeedMetric.NET_TCP_RETRANS_SEGS, tcp.getRetransSegs());
        sink.put(SeedMetric.NET_TCP_IN_ERRS, tcp.getInErrs());
        sink.put(SeedMetric.NET_TCP_OUT_RSTS, tcp.getOutRsts());
    }
}
