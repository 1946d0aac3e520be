package io.loadwise.agent.os;

import io.loadwise.agent.metric.MetricSink;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.wire.MetricGroup;
import io.loadwise.wire.SeedMetric;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU split from Linux {@code /proc/stat} (the aggregate "cpu" line), as the difference to the previous
 * call. The first call only records the counters, so CPU metrics appear from the second sample on.
 * Same definitions as {@link SigarCpuSource}.
 */
public final class ProcStatCpuSource implements MetricSource {

    private final Path procStat;
    private long[] previous;

    public ProcStatCpuSource(Path procStat) {
        this.procStat = procStat;
    }

    @Override
    public MetricGroup group() {
        return MetricGroup.OS;
    }

    @Override
    public void collect(MetricSink sink) throws IOException {
        long[] now = readCpuLine();
        long[] before = previous;
        previous = now;
        if (before == null) {
            return;
        }
        // user nice system idle iowait irq softirq steal
        double user = now[0] - before[0] + now[1] - before[1];
        double system = now[2] - before[2] + now[5] - before[5] + now[6] - before[6];
        double idle = now[3] - before[3];
        double iowait = Math.max(0, now[4] - before[4]); // iowait may go backwards on some kernels
        double steal = now[7] - before[7];
        double total = user + system + idle + iowait + steal;
        if (total <= 0) {
            return; // no tick elapsed since the previous call
        }
        sink.putPercent(SeedMetric.OS_CPU_USER_PCT, user, total);
        sink.putPercent(SeedMetric.OS_CPU_SYSTEM_PCT, system, total);
        sink.putPercent(SeedMetric.OS_CPU_IOWAIT_PCT, iowait, total);
        sink.putPercent(SeedMetric.OS_CPU_IDLE_PCT, idle, total);
        sink.putPercent(SeedMetric.OS_CPU_USED_PCT, total - idle - iowait, total);
        sink.putPercent(SeedMetric.OS_CPU_AVAIL_PCT, idle + iowait, total);
    }

    private long[] readCpuLine() throws IOException {
        for (String line : Files.readAllLines(procStat)) {
            if (line.startsWith("cpu ")) {
                String[] f = line.trim().split("\\s+");
                long[] ticks = new long[8];
                for (int i = 0; i < ticks.length && i + 1 < f.length; i++) {
                    ticks[i] = Long.parseLong(f[i + 1]);
                }
                return ticks;
            }
        }
        throw new IOException(procStat + " has no aggregate 'cpu' line");
    }
}
