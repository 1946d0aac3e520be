package io.loadwise.policy.builtin;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.PolicyMetric;
import io.loadwise.policy.PolicyOptions;
import org.junit.jupiter.api.Test;

/**
 * Saturation by the heap alone (AdaptiveMemory.saturatedNow, shared by adaptive and jvm-aware): two raw readings
 * over the threshold to enter, and out as soon as the filtered level is back under it, with no band. The
 * robustness grid's misses at ρ 0.95 with noisy readings were nodes held on one high heap reading and then kept
 * held by the 5-point band (benchmarks/results/2026-11-29-grid-misses).
 */
class HeapSaturationTest {

    private static final JvmAwareLoad SEED = JvmAwareLoad.from(PolicyOptions.EMPTY); // heap threshold 85

    private static AgentSample heap(double percent) {
        return TestNode.metricsSample("OS_CPU_USED%", 10, "JVM_HEAP_USED%", percent);
    }

    /** Tracks after {@code readings}, each a sample with that heap. */
    private static MetricTrack[] feed(MetricTrack[] tracks, double... readings) {
        MetricTrack[] t = tracks;
        for (double r : readings) {
            t = ReadingFilter.next(t, heap(r));
        }
        return t;
    }

    @Test
    void oneHeapReadingOverTheThresholdDoesNotSaturateANodeTwoInARowDo() {
        MetricTrack[] tracks = null;
        for (int i = 0; i < 20; i++) { // a heap rising from 80 to 85.7 with ±1 swings: a little noise, much drift
            tracks = feed(tracks, 80 + (i % 2 == 0 ? 1 : -1) + 0.3 * i);
        }
        tracks = feed(tracks, 100); // the filter follows the drift: the level is over 85 by its two errors
        assertTrue(ReadingFilter.over(tracks, PolicyMetric.JVM_HEAP_USED, 85, ReadingFilter.CONFIDENCE),
                "the filtered level and the raw reading alone would saturate the node");
        assertFalse(AdaptiveMemory.saturatedNow(SEED, heap(100), tracks, false),
                "one reading over 85, the one before under it: the node is not held");
        tracks = feed(tracks, 100);
        assertTrue(AdaptiveMemory.saturatedNow(SEED, heap(100), tracks, false), "the second one in a row holds it");
    }

    @Test
    void anExactHeapDecidesOnItsFirstReadingOverTheThreshold() {
        MetricTrack[] tracks = feed(null, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 90);
        assertTrue(AdaptiveMemory.saturatedNow(SEED, heap(90), tracks, false), "no noise shown: no second reading");
    }

    @Test
    void aNodeSaturatedByItsHeapIsReleasedOnceTheLevelIsUnderTheThresholdItself() {
        MetricTrack[] tracks = feed(null, 90, 90, 90, 90, 90, 90, 90, 90, 90, 90, 90, 90);
        assertTrue(AdaptiveMemory.saturatedNow(SEED, heap(90), tracks, false));
        tracks = feed(tracks, 86);
        assertTrue(AdaptiveMemory.saturatedNow(SEED, heap(86), tracks, true), "still over 85: still saturated");
        tracks = feed(tracks, 82);
        assertFalse(AdaptiveMemory.saturatedNow(SEED, heap(82), tracks, true),
                "82 is under 85: released, where the queue's 5-point band would keep it to 80");
    }

    @Test
    void theQueueKeepsItsBand() {
        MetricTrack[] tracks = null;
        for (int i = 0; i < 12; i++) {
            tracks = ReadingFilter.next(tracks, TestNode.metricsSample("OS_CPU_USED%", 10, "AMX_CONNS_Q_USED%", 60));
        }
        AgentSample under = TestNode.metricsSample("OS_CPU_USED%", 10, "AMX_CONNS_Q_USED%", 52);
        tracks = ReadingFilter.next(tracks, under);
        assertTrue(AdaptiveMemory.saturatedNow(SEED, under, tracks, true), "a queue at 52 is within 5 of 55: held");
    }

    @Test
    void whereTheAgentReportsTheOldGenerationAfterCollectionTheHeapIsJudgedByIt() {
        MetricTrack[] tracks = null;
        AgentSample sawTooth = null;
        for (int i = 0; i < 20; i++) { // in use 95 % between collections, 40 % left after each
            sawTooth = TestNode.metricsSample("OS_CPU_USED%", 10, "JVM_HEAP_USED%", 95, "JVM_OLD_AFTER_GC%", 40);
            tracks = ReadingFilter.next(tracks, sawTooth);
        }
        assertFalse(AdaptiveMemory.saturatedNow(SEED, sawTooth, tracks, false), "garbage, not live data");

        MetricTrack[] full = null;
        AgentSample live = null;
        for (int i = 0; i < 12; i++) { // 90 % left after each collection, 60 % in use now
            live = TestNode.metricsSample("OS_CPU_USED%", 10, "JVM_HEAP_USED%", 60, "JVM_OLD_AFTER_GC%", 90);
            full = ReadingFilter.next(full, live);
        }
        assertTrue(AdaptiveMemory.saturatedNow(SEED, live, full, false), "live data over 85 %");
        assertTrue(SEED.judgedHeapOver(live, 0) && !SEED.heapOver(live, 0), "the seed's Equation 2 keeps the heap in use");
    }
}
