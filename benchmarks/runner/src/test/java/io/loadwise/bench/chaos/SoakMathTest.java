package io.loadwise.bench.chaos;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The soak's arithmetic: slopes, kill windows, per-minute aggregates and latency quantiles, on made-up figures. */
class SoakMathTest {

    private static final long S = 1_000_000_000L;

    @Test
    void aFlatSeriesHasNoSlopeAndALinearOneItsRateInPercentOfTheMeanPerHour() {
        double[] t = {0, 600, 1_200, 1_800, 2_400, 3_000, 3_600};
        assertEquals(0, Slope.percentPerHour(t, new double[] {5, 5, 5, 5, 5, 5, 5}, 0), 1e-9);
        // 100 → 106 over an hour: +6 per hour around a mean of 103
        double[] y = {100, 101, 102, 103, 104, 105, 106};
        assertEquals(6.0 / 103 * 100, Slope.percentPerHour(t, y, 0), 1e-9);
        double[] down = {106, 105, 104, 103, 102, 101, 100};
        assertEquals(-6.0 / 103 * 100, Slope.percentPerHour(t, down, 0), 1e-9);
    }

    @Test
    void theWarmUpIsLeftOutOfTheSlope() {
        // a JVM's heap growing during the first 10 minutes, then flat: the slope after the warm-up is 0
        double[] t = {0, 300, 600, 900, 1_200, 1_500, 1_800};
        double[] y = {100, 150, 200, 200, 200, 200, 200};
        assertTrue(Slope.percentPerHour(t, y, 0) > 50);
        assertEquals(0, Slope.percentPerHour(t, y, 600), 1e-9);
        assertEquals(300, Slope.warmUpSeconds(3_600), 1e-9, "60 min: 10 % is 6 min, at most 5");
        assertEquals(24, Slope.warmUpSeconds(240), 1e-9, "4 min: 10 %");
        assertTrue(Double.isNaN(Slope.percentPerHour(t, y, 1_800)), "one point has no slope");
        assertTrue(Double.isNaN(Slope.percentPerHour(new double[] {5, 5}, new double[] {1, 2}, 0)), "one time");
    }

    @Test
    void aFailureIsInsideAKillWindowFromOneResponseTimeBeforeTheKillUntilTheNodeIsBack() {
        KillWindows.Window w = KillWindows.Window.of(10 * S, 14 * S);
        assertEquals(10 * S - ChaosDispatcher.RESPONSE_TIMEOUT_MS * 1_000_000L, w.fromNanos());
        List<KillWindows.Window> windows = List.of(w, KillWindows.Window.of(70 * S, 75 * S));
        assertFalse(KillWindows.inside(windows, 8 * S), "before the window");
        assertTrue(KillWindows.inside(windows, 9 * S), "in flight at the kill");
        assertTrue(KillWindows.inside(windows, 14 * S), "up to the readmission, included");
        assertFalse(KillWindows.inside(windows, 14 * S + 1), "after the readmission");
        assertTrue(KillWindows.inside(windows, 72 * S));
        assertFalse(KillWindows.inside(List.of(), 72 * S));
        assertThrows(IllegalArgumentException.class, () -> new KillWindows.Window(5, 4));
    }

    @Test
    void failuresAreSplitPerMinuteOfSendTimeIntoInsideAndOutside() {
        List<SoakStats.Failure> failures = List.of(new SoakStats.Failure(11 * S, "HTTP 502"),
                new SoakStats.Failure(12 * S, "connection reset"), new SoakStats.Failure(30 * S, "HTTP 503"),
                new SoakStats.Failure(61 * S, "HTTP 502"), new SoakStats.Failure(200 * S, "late"));
        long[][] rows = KillWindows.perMinute(failures, List.of(KillWindows.Window.of(10 * S, 14 * S)), 3);
        assertArrayEquals(new long[] {2, 1}, rows[0]);
        assertArrayEquals(new long[] {0, 1}, rows[1]);
        assertArrayEquals(new long[] {0, 1}, rows[2], "a request sent after the last minute counts in it");
    }

    @Test
    void theStatsKeepCountsPerMinuteAndAQuantileOfTheAnswersOnly() {
        SoakStats stats = new SoakStats();
        for (int i = 0; i < 99; i++) {
            stats.record(Outcome.answered(i, i * 100_000_000L, 200, "a"), 2_000_000L);
        }
        stats.record(Outcome.answered(99, 5 * S, 200, "a"), 900_000_000L);
        stats.record(Outcome.failed(100, 6 * S, "client timeout"), 10 * S);
        stats.record(Outcome.answered(101, 61 * S, 502, "x"), 1_000_000L);
        assertEquals(2, stats.minutes());
        SoakStats.Minute first = stats.minute(0);
        assertEquals(101, first.requests());
        assertEquals(1, first.failed());
        assertEquals(2.0, first.p99Millis(), 0.07, "99 of 100 answers took 2 ms");
        assertEquals(1, stats.minute(1).failed());
        assertTrue(Double.isNaN(stats.minute(1).p99Millis()), "no answer in minute 2");
        assertEquals(0, stats.minute(7).requests());
        assertEquals(2, stats.failures().size());
        assertEquals(java.util.Map.of("client timeout", 1L, "HTTP 502", 1L), stats.causes());
    }

    @Test
    void theHistogramIsWithinThreePercentAndItsBucketsCoverTheirValues() {
        for (long v : new long[] {0, 1, 63, 64, 65, 127, 128, 1_000, 12_345, 999_999, 10_000_000_000L}) {
            int b = LatencyHistogram.bucket(v);
            assertTrue(LatencyHistogram.upper(b) >= v, v + " ≤ the upper bound of its bucket");
            assertTrue(b == 0 || LatencyHistogram.upper(b - 1) < v, v + " > the bucket below");
            assertTrue(LatencyHistogram.upper(b) <= v * 1.032 + 1, v + " within 3 %");
        }
        LatencyHistogram h = new LatencyHistogram();
        for (int i = 1; i <= 1_000; i++) {
            h.record(i * 1_000_000L); // 1 ms .. 1000 ms
        }
        assertEquals(990, h.quantileMillis(0.99), 990 * 0.032);
        assertEquals(500, h.quantileMillis(0.5), 500 * 0.032);
        assertTrue(Double.isNaN(new LatencyHistogram().quantileMillis(0.99)));
    }

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertEquals(3, SoakReport.median(new double[] {5, 1, 3}), 1e-9);
        assertEquals(2.5, SoakReport.median(new double[] {4, 1, 3, 2}), 1e-9);
        assertTrue(Double.isNaN(SoakReport.median(new double[0])));
    }

    @Test
    void procStatusFieldsAreReadByName() throws Exception {
        String status = "Name:\tjava\nVmRSS:\t  123456 kB\nThreads:\t42\n";
        assertEquals(123_456, ProcSample.field(status, "VmRSS"));
        assertEquals(42, ProcSample.field(status, "Threads"));
        assertThrows(java.io.IOException.class, () -> ProcSample.field(status, "VmSwap"));
        ProcSample self = ProcSample.read(java.nio.file.Path.of("/proc"), ProcessHandle.current().pid(), 1.5);
        assertTrue(self.rssKb() > 0 && self.fds() > 0 && self.threads() > 0, self.toString());
    }

    @Test
    void theRotationSkipsEtcdWithoutTheEtcdStore() {
        assertEquals(List.of("kill", "reload", "policy", "slow", "storm"), SoakRun.rotation(false));
        assertEquals(SoakRun.FAULTS, SoakRun.rotation(true));
    }
}
