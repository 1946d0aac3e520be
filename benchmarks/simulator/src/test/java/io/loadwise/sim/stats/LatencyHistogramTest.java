package io.loadwise.sim.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LatencyHistogramTest {

    @Test
    void meanIsExactAndPercentilesWithinHalfAPercent() {
        LatencyHistogram h = new LatencyHistogram();
        for (int i = 1; i <= 100_000; i++) {
            h.record(i * 1_000L); // 1 µs .. 100 ms uniformly
        }
        assertEquals(50.0005, h.meanMillis(), 1e-9);
        assertEquals(50.0, h.percentileMillis(0.5), 50.0 * 0.005);
        assertEquals(99.0, h.percentileMillis(0.99), 99.0 * 0.005);
    }

    @Test
    void zerosAreCountedExactly() {
        LatencyHistogram h = new LatencyHistogram();
        for (int i = 0; i < 90; i++) {
            h.record(0);
        }
        for (int i = 0; i < 10; i++) {
            h.record(5_000_000L);
        }
        assertEquals(0.0, h.percentileMillis(0.9));
        assertEquals(5.0, h.percentileMillis(0.95), 5 * 0.005);
        assertEquals(0.5, h.meanMillis(), 1e-12);
    }
}
