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
    void aTracedObservationIsItsBucketsExemplarUntilTheNextOne() {
        LatencyHistogram h = new LatencyHistogram();
        assertEquals(java.util.Arrays.asList(new LatencyHistogram.Exemplar[LatencyHistogram.BOUNDS_SECONDS.length + 1]),
                java.util.Arrays.asList(h.read().exemplars()), "no exemplar before a traced observation");
        h.record(7_000_000); // 7 ms: bucket le=0.01, index 4
        h.exemplar(7_000_000, "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", 1_764_338_229_117L);
        LatencyHistogram.Exemplar e = h.read().exemplars()[4];
        assertEquals(new LatencyHistogram.Exemplar("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", 0.007,
                1_764_338_229_117L), e);
        h.record(9_000_000);
        h.exemplar(9_000_000, "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331", 1_764_338_230_000L);
        assertEquals("b7ad6b7169203331", h.read().exemplars()[4].spanId(), "the last one replaces it");
        h.exemplar(61_000_000_000L, "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203332", 1L);
        assertEquals("b7ad6b7169203332", h.read().exemplars()[LatencyHistogram.BOUNDS_SECONDS.length].spanId(), "+Inf");
        assertEquals(1, java.util.Arrays.stream(h.read().exemplars()).filter(x -> x != null
                && x.spanId().startsWith("b7ad6b71692033")).filter(x -> x.seconds() < 1).count());
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
