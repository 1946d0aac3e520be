package io.loadwise.console.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.loadwise.dispatcher.metrics.CounterReading;
import io.loadwise.dispatcher.metrics.MetricsSnapshot;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatsViewTest {

    private static final long MS = 1_000_000L;

    @Test
    void totalsFollowTable8Definitions() {
        // 3 completed + 1 failed; 4 selections of 0.5 ms; 2 connect waits of 3 ms; PT 10 ms, latency 14 ms.
        CounterReading r = new CounterReading(2, 1, 5, 3, 1, 4, 4 * MS / 2, 2, 2 * 3 * MS, 3 * 10 * MS, 3 * 14 * MS,
                1000, 5000);
        Map<String, Object> t = StatsView.totals(r);
        assertEquals(4L, t.get("samples"));
        assertEquals(25.0, t.get("failedPercent"));
        assertEquals(14.0, t.get("latencyMillis"));
        assertEquals(0.5, t.get("wt1Millis"));
        assertEquals(3.0, t.get("wt2Millis"));
        assertEquals(10.0, t.get("ptMillis"));
        assertEquals((0.5 + 3.0 + 10.0) / 10.0, (Double) t.get("slowdown"), 1e-12);
        assertEquals(5L, t.get("connections"));
        assertEquals(1000L, t.get("bytesIn"));
    }

    @Test
    void figuresWithoutSamplesAreNullNotNaN() {
        Map<String, Object> t = StatsView.totals(CounterReading.ZERO);
        assertEquals(0L, t.get("samples"));
        for (String key : List.of("failedPercent", "latencyMillis", "wt1Millis", "wt2Millis", "ptMillis", "slowdown")) {
            assertNull(t.get(key), key);
        }
        MetricsSnapshot idle = new MetricsSnapshot(1L, 0, 0, 0, 0, Double.NaN, 0, Double.NaN, Double.NaN, Double.NaN,
                Double.NaN, 0, 0);
        Map<String, Object> second = StatsView.table2(idle);
        assertNull(second.get("TD_AVE_RSPS_TIME"));
        assertNull(second.get("TD_AVE_SLOWDOWN"));
        assertEquals(0.0, second.get("TD_AVE_THROUGHPUT"));
    }

    @Test
    void slowdownCountsAMissingWaitAsZero() {
        // Per-connection HTTP: requests complete without a selection or connect of their own.
        CounterReading r = new CounterReading(0, 0, 1, 2, 0, 0, 0, 0, 0, 2 * 8 * MS, 2 * 8 * MS, 0, 0);
        assertEquals(1.0, StatsView.totals(r).get("slowdown"));
    }

    @Test
    void averagesAreMeansPerSecondAndSkipSecondsWithoutSlowdown() {
        List<MetricsSnapshot> history = List.of(
                new MetricsSnapshot(1L, 4, 0, 10, 0, 5, 10, 0.1, 0.1, 5, 1.2, 0, 0),
                new MetricsSnapshot(2L, 2, 0, 0, 0, Double.NaN, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, 0));
        Map<String, Object> a = StatsView.averages(history);
        assertEquals(2, a.get("seconds"));
        assertEquals(3.0, a.get("activeConnections"));
        assertEquals(5.0, a.get("throughput"));
        assertEquals(5.0, a.get("selections"));
        assertEquals(1.2, a.get("slowdown"));
        assertNull(StatsView.averages(List.of()).get("throughput"));
    }
}
