package io.loadwise.policy.builtin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.PolicyOptions;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Saturation by the GC figures (AdaptiveMemory.saturatedNow, {@code gcTimeThreshold} set to 25): three readings
 * averaging over the threshold, the last one over it, put a node out, where the queue and the heap wait for ten.
 * A thrashing Tomcat node otherwise took most of a run's slow requests in its first 13 s
 * (benchmarks/results/2026-11-29-gc-thrash-nice-t20).
 */
class GcSaturationTest {

    private static final JvmAwareLoad GC_25 = JvmAwareLoad.from(PolicyOptions.of(Map.of("gcTimeThreshold", 25)));

    private static AgentSample collecting(double percent) {
        return TestNode.metricsSample("OS_CPU_USED%", 30, "AMX_CONNS_Q_USED%", 10, "JVM_GC_TIME%", percent);
    }

    /** Tracks after {@code readings}, each a sample with that GC share. */
    private static MetricTrack[] feed(MetricTrack[] tracks, double... readings) {
        MetricTrack[] t = tracks;
        for (double r : readings) {
            t = ReadingFilter.next(t, collecting(r));
        }
        return t;
    }

    /** Tracks after {@code count} samples reading {@code percent}. */
    private static MetricTrack[] steady(int count, double percent) {
        double[] readings = new double[count];
        java.util.Arrays.fill(readings, percent);
        return feed(null, readings);
    }

    @Test
    void threeReadingsOverTheThresholdSaturateANodeTwoDoNot() {
        MetricTrack[] tracks = ReadingFilter.next(null, collecting(50));
        assertFalse(AdaptiveMemory.saturatedNow(GC_25, collecting(50), tracks, false), "one reading");
        tracks = ReadingFilter.next(tracks, collecting(60));
        assertFalse(AdaptiveMemory.saturatedNow(GC_25, collecting(60), tracks, false), "two readings");
        tracks = ReadingFilter.next(tracks, collecting(45));
        assertTrue(AdaptiveMemory.saturatedNow(GC_25, collecting(45), tracks, false), "three, mean 51.7");
    }

    @Test
    void aHighMeanDoesNotSaturateANodeWhoseLastReadingIsUnderTheThreshold() {
        MetricTrack[] tracks = feed(null, 90, 80, 5);
        assertFalse(AdaptiveMemory.saturatedNow(GC_25, collecting(5), tracks, false), "mean 58, but 5 now");
    }

    @Test
    void aHeldNodeStaysOutWithinTheBandAndLeavesUnderIt() {
        MetricTrack[] tracks = steady(3, 50);
        assertTrue(AdaptiveMemory.saturatedNow(GC_25, collecting(50), tracks, false));
        tracks = ReadingFilter.next(tracks, collecting(35));
        assertTrue(AdaptiveMemory.saturatedNow(GC_25, collecting(35), tracks, true), "35: within the band");
        boolean held = true;
        for (int i = 0; i < 60 && held; i++) {
            tracks = ReadingFilter.next(tracks, collecting(2));
            held = AdaptiveMemory.saturatedNow(GC_25, collecting(2), tracks, true);
        }
        assertFalse(held, "a JVM back to 2 % is released once its level is under 20");
    }

    @Test
    void aHealthyJvmWithAnOccasionalLongYoungCollectionIsNeverSaturated() {
        Random random = new Random(31);
        MetricTrack[] tracks = null;
        boolean saturated = false;
        int out = 0;
        for (int i = 0; i < 20_000; i++) {
            // the agent's share of the last second: 1-5 %, and one second in twenty with a long young pause, 8-20 %
            double reading = random.nextInt(20) == 0 ? 8 + 12 * random.nextDouble() : 1 + 4 * random.nextDouble();
            if (i % 500 == 0) {
                tracks = null; // a restart now and then: fresh tracks, where the quick entry applies
            }
            tracks = ReadingFilter.next(tracks, collecting(reading));
            saturated = AdaptiveMemory.saturatedNow(GC_25, collecting(reading), tracks, saturated);
            if (saturated) {
                out++;
            }
        }
        assertEquals(0, out, "samples in which a healthy JVM was held");
    }

    @Test
    void aJvmThatStartsThrashingOnAWarmTrackIsSaturatedWithinTenReadings() {
        MetricTrack[] tracks = null;
        for (int i = 0; i < 100; i++) {
            tracks = ReadingFilter.next(tracks, collecting(2 + i % 3));
        }
        int readings = 0;
        boolean saturated = false;
        while (!saturated && readings < 30) {
            tracks = ReadingFilter.next(tracks, collecting(50));
            saturated = AdaptiveMemory.saturatedNow(GC_25, collecting(50), tracks, false);
            readings++;
        }
        assertTrue(saturated && readings <= 10, "readings of 50 % before the node was out: " + readings);
    }

    @Test
    void theThresholdIsOffByDefault() {
        MetricTrack[] tracks = steady(20, 95);
        assertTrue(AdaptiveMemory.saturatedNow(GC_25, collecting(95), tracks, false));
        assertFalse(AdaptiveMemory.saturatedNow(JvmAwareLoad.from(PolicyOptions.EMPTY), collecting(95), tracks, false),
                "off unless set (100)");
    }
}
