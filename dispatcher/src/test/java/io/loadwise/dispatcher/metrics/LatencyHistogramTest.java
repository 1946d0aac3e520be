package io.loadwise.dispatcher.metrics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Bucket edges (Prometheus' {@code le}: at or under), the overflow, a clock that stepped back, the sum. */
class LatencyHistogramTest {

    @Test
    void anObservationOnABoundCountsInThatBucketAndOneAboveInTheNext() {
        LatencyHistogram h = new LatencyHistogram();
        h.record(500_000); // exactly 0.5 ms
        h.record(500_001);
        h.record(1_000_000); // exactly 1 ms
        long[] c = h.read().cumulative();
        assertEquals(1, c[0], "le=0.0005");
        assertEquals(3, c[1], "le=0.001");
        assertEquals(3, c[c.length - 1]);
    }

    @Test
    void beyondTheLastBoundOnlyInfCountsItAndANegativeTimeIsZero() {
        LatencyHistogram h = new LatencyHistogram();
        h.record(61_000_000_000L); // 61 s
        h.record(-5); // a clock that stepped back
        LatencyHistogram.Reading r = h.read();
        long[] expected = new long[LatencyHistogram.BOUNDS_SECONDS.length + 1];
        java.util.Arrays.fill(expected, 1);
        expected[expected.length - 1] = 2;
        assertArrayEquals(expected, r.cumulative());
        assertEquals(2, r.count());
        assertEquals(61.0, r.sumSeconds(), 1e-9);
    }

    @Test
    void emptyReadsZeroEverywhere() {
        LatencyHistogram.Reading r = LatencyHistogram.Reading.EMPTY;
        assertEquals(0, r.count());
        assertEquals(17, r.cumulative().length);
        assertEquals(0.0, r.sumSeconds());
    }

    @Test
    void boundsIncreaseAndEndAtSixtySeconds() {
        double previous = 0;
        for (double b : LatencyHistogram.BOUNDS_SECONDS) {
            assertEquals(true, b > previous, "increasing at " + b);
            previous = b;
        }
        assertEquals(60.0, previous);
    }
}
