package io.loadwise.agent.os;

import io.loadwise.agent.metric.MetricSink;
import io.loadwise.wire.SeedMetric;

/** Turns total/free byte counts into the seed's memory and swap metrics; shared by SIGAR and /proc. */
final class MemoryFigures {

    /** Swap page counters are in pages; Linux x86/ARM use 4 KiB pages. */
    static final double PAGE_BYTES = 4096;

    private MemoryFigures() {
    }

    static void put(MetricSink sink, double totalBytes, double freeBytes) {
        if (totalBytes <= 0 || freeBytes < 0) {
            return;
        }
        double used = totalBytes - freeBytes;
        sink.putMegabytes(SeedMetric.OS_MEM_TOTAL, totalBytes);
        sink.putMegabytes(SeedMetric.OS_MEM_FREE, freeBytes);
        sink.putMegabytes(SeedMetric.OS_MEM_USED, used);
        sink.putPercent(SeedMetric.OS_MEM_USED_PCT, used, totalBytes);
        sink.putPercent(SeedMetric.OS_MEM_FREE_PCT, freeBytes, totalBytes);
    }

    /** A machine without swap reports total 0: sizes are 0 MB, percentages absent (0 of 0 is no ratio). */
    static void putSwap(MetricSink sink, double totalBytes, double freeBytes) {
        if (totalBytes < 0 || freeBytes < 0) {
            return;
        }
        double used = totalBytes - freeBytes;
        sink.putMegabytes(SeedMetric.OS_SWAP_TOTAL, totalBytes);
        sink.putMegabytes(SeedMetric.OS_SWAP_FREE, freeBytes);
        sink.putMegabytes(SeedMetric.OS_SWAP_USED, used);
        sink.putPercent(SeedMetric.OS_SWAP_USED_PCT, used, totalBytes);
        sink.putPercent(SeedMetric.OS_SWAP_FREE_PCT, freeBytes, totalBytes);
    }

    static double pagesToMegabytes(long pages) {
        return pages < 0 ? Double.NaN : pages * PAGE_BYTES / MetricSink.BYTES_PER_MB;
    }
}
