package io.loadwise.agent.os;

import io.loadwise.agent.metric.MetricSink;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.wire.MetricGroup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Memory and swap from Linux {@code /proc/meminfo}. Free memory is {@code MemAvailable} (free plus
 * reclaimable cache), matching SIGAR's "actual free".
 */
public final class ProcMeminfoSource implements MetricSource {

    private final Path meminfo;

    public ProcMeminfoSource(Path meminfo) {
        this.meminfo = meminfo;
    }

    @Override
    public MetricGroup group() {
        return MetricGroup.OS;
    }

    @Override
    public void collect(MetricSink sink) throws IOException {
        Map<String, Long> kb = new HashMap<>();
        for (String line : Files.readAllLines(meminfo)) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                String[] value = line.substring(colon + 1).trim().split("\\s+");
                kb.put(line.substring(0, colon), Long.parseLong(value[0]));
            }
        }
        Long total = kb.get("MemTotal");
        Long available = kb.containsKey("MemAvailable") ? kb.get("MemAvailable") : kb.get("MemFree");
        if (total != null && available != null) {
            MemoryFigures.put(sink, total * 1024.0, available * 1024.0);
        }
        Long swapTotal = kb.get("SwapTotal");
        Long swapFree = kb.get("SwapFree");
        if (swapTotal != null && swapFree != null) {
            MemoryFigures.putSwap(sink, swapTotal * 1024.0, swapFree * 1024.0);
        }
    }
}
