package io.loadwise.agent.jvm;

import io.loadwise.agent.metric.MetricSink;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.wire.GcMetric;
import io.loadwise.wire.MetricGroup;
import io.loadwise.wire.SeedMetric;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Garbage collection, from the collectors' and the heap pools' MXBeans: the total time since the JVM
 * started ({@code JVM_GC_TIME}, the seed's), the share of the last second spent collecting ({@link
 * #SHARE_WINDOW_NANOS}), and since the previous call ({@link GcMetric}): the longest collection that ended in
 * it, whether the call came late while collections ran; and the old generation's use after its last collection.
 *
 * <p>One instance serves the fast and the full samples (both lists), so "the interval" is the time since
 * the previous sample of either kind. Called on the sampler thread only. A figure the JVM does not give
 * (a collector that reports no time, no old-generation pool, a JVM without HotSpot's {@code GcInfo}, a
 * security manager that refuses) is left out, never reported as 0.
 */
public final class JvmGcSource implements MetricSource {

    /**
     * How late a sample must come, as a multiple of the interval it was due after, to count as an overrun:
     * 1.5. The sampler thread is a Java thread: a stop-the-world collection stops it, so a sample that comes
     * half an interval late while collections took time in between was very likely held up by them.
     */
    static final double OVERRUN_FACTOR = 1.5;

    /**
     * The span {@code JVM_GC_TIME%} is measured over: 1 s, from the newest earlier call at least that old (the
     * oldest while the agent is younger). Why not the interval since the previous call: with 100 ms fast samples a
     * healthy JVM's one young pause of 40 ms read 40 %, one sample in twenty, and a filter that follows a drifting
     * level followed those spikes (a node with {@code gcTimeThreshold} 25 was held on them); over a second the
     * same JVM reads its 2-5 %, and one collecting half its time reads about 50 at every sample.
     */
    static final long SHARE_WINDOW_NANOS = 1_000_000_000L;
    /** Calls remembered for the window, at most: more than a second of 100 ms samples beside 1 s ones. */
    static final int MAX_POINTS = 32;

    private final List<GarbageCollectorMXBean> collectors;
    private final List<MemoryPoolMXBean> oldPools;
    private final LongSupplier nanoClock;
    private final long expectedIntervalNanos;
    private final Map<String, Long> lastGcId = new HashMap<>();
    private final ArrayDeque<long[]> points = new ArrayDeque<>(); // {nanos, total GC millis}, oldest first
    private long lastTotalMillis = -1;
    private long lastNanos;

    /** The platform's collectors and pools on the real clock, due every {@code intervalMillis}. */
    public JvmGcSource(List<GarbageCollectorMXBean> collectors, List<MemoryPoolMXBean> pools, long intervalMillis) {
        this(collectors, pools, System::nanoTime, intervalMillis);
    }

    JvmGcSource(List<GarbageCollectorMXBean> collectors, List<MemoryPoolMXBean> pools, LongSupplier nanoClock,
            long intervalMillis) {
        this.collectors = List.copyOf(collectors);
        this.oldPools = pools.stream().filter(p -> p.getType() == MemoryType.HEAP && isOld(p.getName())).toList();
        this.nanoClock = nanoClock;
        this.expectedIntervalNanos = Math.max(1, intervalMillis) * 1_000_000L;
    }

    /** G1 Old Gen, PS Old Gen, Tenured Gen, CMS Old Gen, ZGC Old Generation, Shenandoah has none. */
    static boolean isOld(String poolName) {
        String name = poolName.toLowerCase(Locale.ROOT);
        return name.contains("old") || name.contains("tenured");
    }

    @Override
    public MetricGroup group() {
        return MetricGroup.JVM;
    }

    @Override
    public void collect(MetricSink sink) {
        long now = nanoClock.getAsLong();
        long total = 0;
        boolean known = false;
        double longest = 0;
        boolean durationsKnown = true;
        for (GarbageCollectorMXBean gc : collectors) {
            long time = gc.getCollectionTime();
            if (time >= 0) { // -1 means this collector does not report time
                total += time;
                known = true;
            }
            double ended = lastEndedDuration(gc);
            if (Double.isNaN(ended)) {
                durationsKnown = false;
            } else {
                longest = Math.max(longest, ended);
            }
        }
        if (known) {
            sink.put(SeedMetric.JVM_GC_TIME, total);
            if (lastTotalMillis >= 0 && now > lastNanos) {
                long elapsedNanos = now - lastNanos;
                long collectedMillis = Math.max(0, total - lastTotalMillis);
                sink.put(GcMetric.JVM_GC_TIME_PCT.metricName(), shareOfLastSecond(now, total));
                boolean late = elapsedNanos > OVERRUN_FACTOR * expectedIntervalNanos;
                sink.put(GcMetric.JVM_GC_OVERRUN.metricName(), late && collectedMillis > 0 ? 1 : 0);
                if (durationsKnown) {
                    sink.put(GcMetric.JVM_GC_MAX_MS.metricName(), longest);
                }
            }
            lastTotalMillis = total;
            lastNanos = now;
            remember(now, total);
        }
        double oldAfter = oldAfterCollection();
        if (!Double.isNaN(oldAfter)) {
            sink.put(GcMetric.JVM_OLD_AFTER_GC_PCT.metricName(), oldAfter);
        }
    }

    /**
     * Percent of the time since the window's anchor spent collecting: the anchor is the newest remembered call at
     * least {@link #SHARE_WINDOW_NANOS} before {@code now}, or the oldest one while none is that old.
     */
    private double shareOfLastSecond(long now, long total) {
        long[] anchor = points.peekFirst();
        for (long[] point : points) {
            if (now - point[0] < SHARE_WINDOW_NANOS) {
                break;
            }
            anchor = point;
        }
        long elapsedNanos = now - anchor[0];
        if (elapsedNanos <= 0) {
            return 0;
        }
        long collectedMillis = Math.max(0, total - anchor[1]);
        return Math.min(100, 100.0 * collectedMillis * 1_000_000L / elapsedNanos);
    }

    /** Adds this call; drops the calls older than the window's anchor needs, and the oldest beyond {@link #MAX_POINTS}. */
    private void remember(long now, long total) {
        points.addLast(new long[] {now, total});
        while (points.size() > MAX_POINTS) {
            points.removeFirst();
        }
        while (points.size() > 1) {
            long[] first = points.pollFirst();
            if (now - points.peekFirst()[0] < SHARE_WINDOW_NANOS) { // the next one cannot anchor yet: keep the first
                points.addFirst(first);
                break;
            }
        }
    }

    /**
     * The duration of the collector's last collection if it ended since the previous call, 0 if none did,
     * NaN when the JVM does not say (no {@code com.sun.management} GcInfo). The first call only learns
     * the last collection's id.
     */
    private double lastEndedDuration(GarbageCollectorMXBean gc) {
        if (!(gc instanceof com.sun.management.GarbageCollectorMXBean hotspot)) {
            return Double.NaN;
        }
        com.sun.management.GcInfo info;
        try {
            info = hotspot.getLastGcInfo();
        } catch (RuntimeException e) { // a security manager, or a collector that went away
            return Double.NaN;
        }
        if (info == null) {
            return 0;
        }
        Long seen = lastGcId.put(gc.getName(), info.getId());
        return seen != null && seen != info.getId() ? info.getDuration() : 0;
    }

    /** The fullest old-generation pool after its last collection, 0-100; NaN when no pool tells. */
    private double oldAfterCollection() {
        double fullest = Double.NaN;
        for (MemoryPoolMXBean pool : oldPools) {
            MemoryUsage after;
            try {
                after = pool.isValid() ? pool.getCollectionUsage() : null;
            } catch (RuntimeException e) {
                after = null;
            }
            if (after == null) {
                continue;
            }
            long capacity = after.getMax() > 0 ? after.getMax() : after.getCommitted();
            if (capacity > 0) {
                double used = 100.0 * after.getUsed() / capacity;
                fullest = Double.isNaN(fullest) ? used : Math.max(fullest, used);
            }
        }
        return fullest;
    }
}
