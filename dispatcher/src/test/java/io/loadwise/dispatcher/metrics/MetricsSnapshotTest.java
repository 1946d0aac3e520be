package io.loadwise.dispatcher.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MetricsSnapshotTest {

    private static final double EPS = 1e-9;

    @Test
    void ratesAndMeansOfOneInterval() {
        CounterReading before = new CounterReading(3, 1, 10, 100, 2, 50, 5_000_000, 20, 40_000_000,
                900_000_000, 1_000_000_000, 1_000_000, 4_000_000);
        // Over 2 s: 40 completed (latency 2.4 s total, PT 2.0 s total), 4 failed, 20 selections taking
        // 2 ms in total, 10 connects waiting 30 ms in total, 3 MB in, 8 MB out.
        CounterReading after = new CounterReading(5, 2, 18, 140, 6, 70, 7_000_000, 30, 70_000_000,
                2_900_000_000L, 3_400_000_000L, 4_000_000, 12_000_000);
        MetricsSnapshot s = MetricsSnapshot.between(before, after, 2.0, 1234L);

        assertEquals(1234L, s.epochMillis());
        assertEquals(5, s.activeConnections());
        assertEquals(2, s.activeRequests());
        assertEquals(20.0, s.throughput(), EPS);
        assertEquals(2.0, s.failed(), EPS);
        assertEquals(60.0, s.latencyMillis(), EPS);
        assertEquals(10.0, s.selections(), EPS);
        assertEquals(0.1, s.selectionMillis(), EPS);
        assertEquals(3.0, s.connectWaitMillis(), EPS);
        assertEquals(50.0, s.processingMillis(), EPS);
        assertEquals((0.1 + 3.0 + 50.0) / 50.0, s.slowdown(), EPS);
        assertEquals(1.5, s.trafficInMBps(), EPS);
        assertEquals(4.0, s.trafficOutMBps(), EPS);
    }

    @Test
    void ejectionsAreCountedAndGivenPerSecond() {
        TrafficCounters counters = new TrafficCounters();
        CounterReading before = counters.read();
        counters.ejected();
        counters.ejected();
        counters.ejected();
        CounterReading after = counters.read();
        assertEquals(3, after.ejections() - before.ejections());
        assertEquals(1.5, MetricsSnapshot.between(before, after, 2.0, 0).ejections(), EPS);
        assertEquals(0, new CounterReading(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0).ejections(),
                "a reading written before ejections existed has none");
    }

    @Test
    void meansWithoutSamplesAreNaN() {
        CounterReading quiet = new CounterReading(1, 0, 5, 10, 0, 5, 100, 5, 100, 1000, 1000, 0, 0);
        MetricsSnapshot s = MetricsSnapshot.between(quiet, quiet, 1.0, 0);
        assertEquals(0.0, s.throughput());
        assertTrue(Double.isNaN(s.latencyMillis()));
        assertTrue(Double.isNaN(s.selectionMillis()));
        assertTrue(Double.isNaN(s.connectWaitMillis()));
        assertTrue(Double.isNaN(s.processingMillis()));
        assertTrue(Double.isNaN(s.slowdown()));
    }

    @Test
    void slowdownCountsMissingWaitsAsZero() {
        assertEquals(1.0, MetricsSnapshot.slowdown(Double.NaN, Double.NaN, 20.0), EPS);
        assertEquals(1.5, MetricsSnapshot.slowdown(4.0, 6.0, 20.0), EPS);
        assertTrue(Double.isNaN(MetricsSnapshot.slowdown(1.0, 1.0, 0.0)));
    }

    @Test
    void intervalMustBePositive() {
        assertThrows(IllegalArgumentException.class,
                () -> MetricsSnapshot.between(CounterReading.ZERO, CounterReading.ZERO, 0, 0));
    }
}
