package io.loadwise.agent.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.agent.metric.MetricSink;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

class JvmGcSourceTest {

    /** A collector whose total time the test sets; no GcInfo (not HotSpot's interface). */
    private static final class FakeCollector implements GarbageCollectorMXBean {
        volatile long timeMillis;
        volatile long count;

        @Override
        public long getCollectionCount() {
            return count;
        }

        @Override
        public long getCollectionTime() {
            return timeMillis;
        }

        @Override
        public String getName() {
            return "fake";
        }

        @Override
        public boolean isValid() {
            return true;
        }

        @Override
        public String[] getMemoryPoolNames() {
            return new String[0];
        }

        @Override
        public ObjectName getObjectName() {
            return null;
        }
    }

    private static Map<String, Double> collect(JvmGcSource source) {
        MetricSink sink = new MetricSink();
        source.collect(sink);
        return sink.values();
    }

    @Test
    void theShareOfTheLastSecondInCollectionsAndAnOverrunAreMeasured() {
        FakeCollector gc = new FakeCollector();
        AtomicLong nanos = new AtomicLong();
        JvmGcSource source = new JvmGcSource(List.of(gc), List.of(), nanos::get, 100);
        gc.timeMillis = 1_000;
        Map<String, Double> first = collect(source);
        assertEquals(1_000.0, first.get("JVM_GC_TIME"));
        assertFalse(first.containsKey("JVM_GC_TIME%"), "no interval yet: absent, not 0");
        assertFalse(first.containsKey("JVM_GC_OVERRUN"));

        nanos.addAndGet(100_000_000); // on time, 25 ms of the 100 collecting; the agent is 100 ms old
        gc.timeMillis = 1_025;
        Map<String, Double> onTime = collect(source);
        assertEquals(25.0, onTime.get("JVM_GC_TIME%"), 1e-9, "younger than a second: since the first call");
        assertEquals(0.0, onTime.get("JVM_GC_OVERRUN"));
        assertFalse(onTime.containsKey("JVM_GC_MAX_MS"), "no GcInfo on this collector: absent");

        nanos.addAndGet(400_000_000); // 4 intervals late, 300 ms of them collecting: a long pause held the sampler
        gc.timeMillis = 1_325;
        Map<String, Double> late = collect(source);
        assertEquals(65.0, late.get("JVM_GC_TIME%"), 1e-9, "325 ms of 500");
        assertEquals(1.0, late.get("JVM_GC_OVERRUN"));

        nanos.addAndGet(400_000_000); // late again but nothing collected: the machine, not the GC
        Map<String, Double> idle = collect(source);
        assertEquals(100.0 * 325 / 900, idle.get("JVM_GC_TIME%"), 1e-9);
        assertEquals(0.0, idle.get("JVM_GC_OVERRUN"));

        nanos.addAndGet(300_000_000); // 1.2 s: the window starts at the call at 100 ms, 300 ms of 1,100 collecting
        Map<String, Double> second = collect(source);
        assertEquals(100.0 * 300 / 1_100, second.get("JVM_GC_TIME%"), 1e-9);
    }

    @Test
    void aHealthyJvmsYoungPauseReadsAsItsShareOfASecondNotOfOneSample() {
        FakeCollector gc = new FakeCollector();
        AtomicLong nanos = new AtomicLong();
        JvmGcSource source = new JvmGcSource(List.of(gc), List.of(), nanos::get, 100);
        double highest = 0;
        for (int sample = 0; sample <= 100; sample++) { // ten seconds of 100 ms samples, a 40 ms pause every 2 s
            if (sample > 0 && sample % 20 == 0) {
                gc.timeMillis += 40;
            }
            Map<String, Double> values = collect(source);
            if (sample >= 10) {
                highest = Math.max(highest, values.get("JVM_GC_TIME%"));
            }
            nanos.addAndGet(100_000_000);
        }
        assertEquals(4.0, highest, 1e-9, "40 ms in the last second, never the 40 % of its own 100 ms");

        FakeCollector thrashing = new FakeCollector();
        JvmGcSource busy = new JvmGcSource(List.of(thrashing), List.of(), nanos::get, 100);
        double lowest = 100;
        for (int sample = 0; sample <= 40; sample++) { // 250 ms pauses every 500 ms: samples land in and between
            thrashing.timeMillis = 500L * (sample / 5) + Math.min(250, 100L * (sample % 5));
            Map<String, Double> values = collect(busy);
            if (sample >= 10) {
                lowest = Math.min(lowest, values.get("JVM_GC_TIME%"));
            }
            nanos.addAndGet(100_000_000);
        }
        assertTrue(lowest >= 45, "collecting half its time reads about 50 at every sample, lowest " + lowest);
    }

    @Test
    void theWindowRemembersABoundedNumberOfCalls() {
        FakeCollector gc = new FakeCollector();
        AtomicLong nanos = new AtomicLong();
        JvmGcSource source = new JvmGcSource(List.of(gc), List.of(), nanos::get, 1);
        for (int call = 0; call < 10_000; call++) { // a call every millisecond: a second is 1,000 of them
            gc.timeMillis = call / 2; // collecting half the time
            collect(source);
            nanos.addAndGet(1_000_000);
        }
        gc.timeMillis = 5_000;
        double share = collect(source).get("JVM_GC_TIME%");
        assertEquals(50.0, share, 1.0, "over the last " + JvmGcSource.MAX_POINTS + " calls, still about half");
    }

    @Test
    void aCollectorThatReportsNoTimeGivesNoFigures() {
        FakeCollector gc = new FakeCollector();
        gc.timeMillis = -1;
        AtomicLong nanos = new AtomicLong();
        JvmGcSource source = new JvmGcSource(List.of(gc), List.of(), nanos::get, 100);
        collect(source);
        nanos.addAndGet(100_000_000);
        Map<String, Double> values = collect(source);
        assertFalse(values.containsKey("JVM_GC_TIME"));
        assertFalse(values.containsKey("JVM_GC_TIME%"), "absent, never 0: " + values);
        assertFalse(values.containsKey("JVM_OLD_AFTER_GC%"));
    }

    @Test
    void onThisJvmAFullCollectionShowsItsDurationAndTheOldGenerationAfterIt() {
        List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
        List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans();
        JvmGcSource source = new JvmGcSource(collectors, pools, 100);
        collect(source);
        byte[] kept = new byte[16 * 1024 * 1024];
        System.gc();
        Map<String, Double> after = collect(source);
        assertTrue(after.get("JVM_GC_TIME%") >= 0 && after.get("JVM_GC_TIME%") <= 100, after.toString());
        assertTrue(after.get("JVM_GC_MAX_MS") >= 0, "HotSpot gives the last collection's duration: " + after);
        boolean hasOldPool = pools.stream().anyMatch(p -> JvmGcSource.isOld(p.getName()));
        if (hasOldPool) {
            double old = after.get("JVM_OLD_AFTER_GC%");
            assertTrue(old > 0 && old <= 100, "the kept array is in the old generation after a full collection: " + after);
        }
        assertTrue(kept.length > 0);
    }

    @Test
    void oldGenerationPoolsAreKnownByTheirNames() {
        for (String old : List.of("G1 Old Gen", "PS Old Gen", "Tenured Gen", "CMS Old Gen", "ZGC Old Generation")) {
            assertTrue(JvmGcSource.isOld(old), old);
        }
        for (String young : List.of("G1 Eden Space", "G1 Survivor Space", "PS Eden Space", "ZHeap", "Metaspace")) {
            assertFalse(JvmGcSource.isOld(young), young);
        }
    }
}
