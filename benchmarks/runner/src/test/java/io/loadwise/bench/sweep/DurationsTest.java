package io.loadwise.bench.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DurationsTest {

    @Test
    void scaleOneIsTheSeedsFiveMinuteWorkload() {
        Durations seed = Durations.scaled(1, 30);
        assertEquals(10, seed.rampStepSeconds());
        assertEquals(120, seed.sustainSeconds());
        assertEquals(300, seed.totalSeconds());
    }

    @Test
    void theSweepScaleKeepsOneSecondSteps() {
        Durations sweep = Durations.scaled(0.05, 30);
        assertEquals(1, sweep.rampStepSeconds());
        assertEquals(6, sweep.sustainSeconds());
        assertEquals(24, sweep.totalSeconds());
        assertTrue(sweep.describe().contains("3 started every 1 s"), sweep.describe());
    }

    @Test
    void theQuickScaleHasNoRamp() {
        Durations quick = Durations.scaled(0.04, 10);
        assertEquals(0, quick.rampStepSeconds());
        assertEquals(5, quick.totalSeconds());
        assertTrue(quick.describe().contains("no ramp"), quick.describe());
    }

    @Test
    void threadsMustSplitOverTheTenSteps() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Durations.scaled(1, 25));
        assertTrue(e.getMessage().contains("multiple of 10"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Durations.scaled(0, 30));
        assertThrows(IllegalArgumentException.class, () -> Durations.scaled(Double.NaN, 30));
    }
}
