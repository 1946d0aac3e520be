package io.loadwise.agent.jvm;

import io.loadwise.agent.metric.MetricSink;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.wire.MetricGroup;
import io.loadwise.wire.SeedMetric;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.Locale;

/**
 * Heap size and use. "Total" is the maximum the heap may grow to ({@code -Xmx}) when the JVM defines one,
 * else the committed size, so that JVM_HEAP_USED% says how close the node is to an OutOfMemoryError.
 *
 * <p>"Used" leaves out the young generation's garbage: eden counts as it was after the last collection.
 * The raw figure climbs to near 100 % every time eden fills, on a healthy node too, so a policy that
 * refuses nodes above a heap threshold (jvm-aware) would refuse them at random. Survivor and old
 * generations count as they are now: what is there survived at least one collection. Collectors without
 * an eden pool (ZGC, Shenandoah, Epsilon) report their heap as it is.
 */
public final class JvmHeapSource implements MetricSource {

    private final MemoryMXBean memory;
    private final List<MemoryPoolMXBean> pools;

    public JvmHeapSource(MemoryMXBean memory, List<MemoryPoolMXBean> pools) {
        this.memory = memory;
        this.pools = pools.stream().filter(p -> p.getType() == MemoryType.HEAP).toList();
    }

    @Override
    public MetricGroup group() {
        return MetricGroup.JVM;
    }

    @Override
    public void collect(MetricSink sink) {
        MemoryUsage heap = memory.getHeapMemoryUsage();
        double total = heap.getMax() > 0 ? heap.getMax() : heap.getCommitted();
        double used = retained(heap.getUsed());
        sink.putMegabytes(SeedMetric.JVM_HEAP_TOTAL, total);
        sink.putMegabytes(SeedMetric.JVM_HEAP_USED, used);
        sink.putMegabytes(SeedMetric.JVM_HEAP_AVAIL, total - used);
        sink.putPercent(SeedMetric.JVM_HEAP_USED_PCT, used, total);
        sink.putPercent(SeedMetric.JVM_HEAP_AVAIL_PCT, total - used, total);
    }

    /** Heap in use without eden's garbage; {@code rawUsed} when the pools do not tell. */
    private double retained(long rawUsed) {
        long sum = 0;
        boolean eden = false;
        for (MemoryPoolMXBean pool : pools) {
            if (!pool.isValid()) {
                continue;
            }
            MemoryUsage afterGc = pool.getCollectionUsage();
            if (isEden(pool) && afterGc != null) {
                sum += afterGc.getUsed();
                eden = true;
            } else {
                MemoryUsage now = pool.getUsage();
                sum += now == null ? 0 : now.getUsed();
            }
        }
        return eden ? sum : rawUsed;
    }

    private static boolean isEden(MemoryPoolMXBean pool) {
        return pool.getName().toLowerCase(Locale.ROOT).contains("eden");
    }
}
