package io.loadwise.agent.os;

import io.loadwise.agent.metric.MetricSink;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.wire.MetricGroup;
import io.loadwise.wire.SeedMetric;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** TCP MIB counters from Linux {@code /proc/net/snmp} (a "Tcp:" header line followed by a value line). */
public final class ProcSnmpTcpSource implements MetricSource {

    private static final String[] FIELDS = {
        "ActiveOpens", "PassiveOpens", "AttemptFails", "EstabResets", "CurrEstab",
        "InSegs", "OutSegs", "RetransSegs", "InErrs", "OutRsts",
    };
    private static final SeedMetric[] METRICS = {
        SeedMetric.NET_TCP_ACT_OPENS, SeedMetric.NET_TCP_PASV_OPENS, SeedMetric.NET_TCP_ATT_FAILS,
        SeedMetric.NET_TCP_ESTAB_RESETS, SeedMetric.NET_TCP_CUR_ESTAB, SeedMetric.NET_TCP_IN_SEGS,
        SeedMetric.NET_TCP_OUT_SEGS, SeedMetric.NET_TCP_RETRANS_SEGS, SeedMetric.NET_TCP_IN_ERRS,
        SeedMetric.NET_TCP_OUT_RSTS,
    };

    private final Path snmp;

    public ProcSnmpTcpSource(Path snmp) {
        this.snmp = snmp;
    }

    @Override
    public MetricGroup group() {
        return MetricGroup.OS;
    }

    @Override
    public void collect(MetricSink sink) throws IOException {
        List<String> lines = Files.readAllLines(snmp);
        for (int i = 0; i + 1 < lines.size(); i++) {
            if (lines.get(i).startsWith("Tcp:") && lines.get(i + 1).startsWith("Tcp:")) {
                List<String> names = List.of(lines.get(i).trim().split("\\s+"));
                String[] values = lines.get(i + 1).trim().split("\\s+");
                for (int m = 0; m < FIELDS.length; m++) {
                    int at = names.indexOf(FIELDS[m]);
                    if (at > 0 && at < values.length) {
                        sink.put(METRICS[m], Double.parseDouble(values[at]));
                    }
                }
                return;
            }
        }
    }
}
