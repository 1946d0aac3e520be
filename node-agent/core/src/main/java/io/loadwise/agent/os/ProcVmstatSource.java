package io.loadwise.agent.os;

import io.loadwise.agent.metric.MetricSink;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.wire.MetricGroup;
import io.loadwise.wire.SeedMetric;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Swap paging from Linux {@code /proc/vmstat} ({@code pswpin}/{@code pswpout}, pages since boot, as MB). */
public final class ProcVmstatSource implements MetricSource {

    private final Path vmstat;

    public ProcVmstatSource(Path vmstat) {
        this.vmstat = vmstat;
    }

    @Override
    public MetricGroup group() {
        return MetricGroup.OS;
    }

    @Override
    public void collect(MetricSink sink) throws IOException {
        for (String line : Files.readAllLines(vmstat)) {
            if (line.startsWith("pswpin ")) {
                sink.put(SeedMetric.OS_SWAP_PAGEINS, MemoryFigures.pagesToMegabytes(value(line)));
            } else if (line.startsWith("pswpout ")) {
                sink.put(SeedMetric.OS_SWAP_PAGEOUTS, MemoryFigures.pagesToMegabytes(value(line)));
            }
        }
    }

    private static long value(String line) {
        return Long.parseLong(line.substring(line.indexOf(' ') + 1).trim());
    }
}
