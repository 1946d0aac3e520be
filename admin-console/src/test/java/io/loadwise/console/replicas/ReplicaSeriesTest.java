package io.loadwise.console.replicas;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.console.store.Series;
import io.loadwise.console.store.SeriesCatalog;
import io.loadwise.console.store.SeriesPoints;
import io.loadwise.console.store.Window;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which cluster series add up over replicas, and how series read a moment apart are aligned and summed. */
class ReplicaSeriesTest {

    private static final double NAN = Double.NaN;

    private static SeriesPoints points(long start, long step, double... values) {
        long[] times = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            times[i] = start + i * step;
        }
        return new SeriesPoints(start, start + (values.length - 1) * step, step, 1, times, values.clone());
    }

    @Test
    void countsAndRatesAddUpMeansAndRatiosDoNot() {
        for (String metric : List.of("TD_AVE_CONNS_ACT", "TD_AVE_RQSTS_ACT", "TD_AVE_THROUGHPUT", "TD_AVE_FAIL_RQSTS",
                "TD_AVE_SRV_SELS", "TD_AVE_TRAF_IN", "TD_AVE_TRAF_OUT")) {
            assertTrue(ReplicaSeries.additive(SeriesCatalog.CLUSTER.find(metric)), metric);
        }
        for (String metric : List.of("TD_AVE_RSPS_TIME", "TD_AVE_SRV_SEL", "TD_AVE_SRV_CONN_WAIT", "TD_AVE_RQ_PROCTIME",
                "TD_AVE_SLOWDOWN")) {
            Series series = SeriesCatalog.CLUSTER.find(metric);
            assertFalse(ReplicaSeries.additive(series), metric);
            assertTrue(ReplicaSeries.notAdditive(series).startsWith(metric + " is a "), ReplicaSeries.notAdditive(series));
        }
        // Every cluster series is one or the other, and no node series (a node seen by every replica) is summed.
        for (Series s : SeriesCatalog.CLUSTER.series()) {
            assertEquals(!(s.unit().equals("ms") || s.unit().equals("ratio")), ReplicaSeries.additive(s), s.metric());
        }
        assertFalse(ReplicaSeries.additive(SeriesCatalog.NODE.find("JVM_HEAP_USED%")));
        assertFalse(ReplicaSeries.additive(SeriesCatalog.NODE.find("TAP_NODE_SEL")));
    }

    @Test
    void theSumAddsKnownValuesAndIsUnknownOnlyWhereNoReplicaKnowsOne() {
        SeriesPoints grid = points(100, 1, 1, 2, NAN, NAN);
        SeriesPoints other = points(100, 1, 10, NAN, 30, NAN);

        SeriesPoints sum = ReplicaSeries.sum(grid, List.of(grid, other));

        assertArrayEquals(new long[] {100, 101, 102, 103}, sum.timestamps());
        assertArrayEquals(new double[] {11, 2, 30, NAN}, sum.values());
    }

    @Test
    void aSeriesReadAMomentLaterIsAlignedByTimestamp() {
        SeriesPoints grid = points(100, 1, 1, 1, 1, 1);
        SeriesPoints later = points(101, 1, 5, 6, 7, 8); // 101..104: one step later

        assertArrayEquals(new double[] {NAN, 5, 6, 7}, ReplicaSeries.align(grid, later).values());
        assertArrayEquals(new double[] {1, 6, 7, 8}, ReplicaSeries.sum(grid, List.of(grid, later)).values());
    }

    @Test
    void aSeriesOfAnotherStepAddsNothing() {
        SeriesPoints grid = points(120, 4, 1, 1, 1);
        SeriesPoints coarse = points(120, 60, 9, 9, 9);

        assertArrayEquals(new double[] {NAN, NAN, NAN}, ReplicaSeries.align(grid, coarse).values());
        assertArrayEquals(new double[] {1, 1, 1}, ReplicaSeries.sum(grid, List.of(grid, coarse)).values());
    }

    @Test
    void theSumOfNothingIsUnknownEverywhere() {
        SeriesPoints grid = points(100, 1, 3, 4);
        assertArrayEquals(new double[] {NAN, NAN}, ReplicaSeries.sum(grid, List.of()).values());
    }

    @Test
    void everyWindowStaysWithinThePointCapOnAGridAlignedToItsStep() {
        for (Window window : Window.values()) {
            SeriesPoints grid = SeriesPoints.unknown(window, 1_795_000_123L);
            assertTrue(grid.size() <= SeriesPoints.MAX_POINTS, window + ": " + grid.size());
            assertEquals(0, grid.end() % grid.step(), window.key());
            assertEquals(window.seconds(), grid.end() - grid.start(), window.key());
            assertEquals(0, grid.step() % window.resolutionSeconds(), window.key());
        }
        assertEquals(1, SeriesPoints.step(Window.TEN_MINUTES));
        assertEquals(4, SeriesPoints.step(Window.ONE_HOUR));
        assertEquals(120, SeriesPoints.step(Window.ONE_DAY));
        assertEquals(3600, SeriesPoints.step(Window.THIRTY_DAYS));
    }

    @Test
    void aPeersDocumentIsCheckedBeforeItIsAdded() {
        Series throughput = SeriesCatalog.CLUSTER.find("TD_AVE_THROUGHPUT");
        SeriesPoints grid = points(100, 1, 1.5, NAN, 3);
        SeriesDocument document = SeriesDocument.of("web", throughput, Window.TEN_MINUTES, "lb2", grid);
        assertArrayEquals(new Double[] {1.5, null, 3.0}, document.values());
        assertArrayEquals(grid.values(), document.toPoints("TD_AVE_THROUGHPUT", 1).values());

        assertEquals("metric 'TD_AVE_THROUGHPUT', not TD_AVE_CONNS_ACT",
                assertThrows(IllegalArgumentException.class, () -> document.toPoints("TD_AVE_CONNS_ACT", 1)).getMessage());
        assertEquals("step 1 s, not 4 s",
                assertThrows(IllegalArgumentException.class, () -> document.toPoints("TD_AVE_THROUGHPUT", 4)).getMessage());
        SeriesDocument gap = new SeriesDocument("web", "TD_AVE_THROUGHPUT", "req/s", "10m", "lb2", 100, 103, 1, 1, 1000,
                false, new long[] {100, 101, 103}, new Double[] {1.0, 2.0, 3.0});
        assertEquals("timestamps not every 1 s",
                assertThrows(IllegalArgumentException.class, () -> gap.toPoints("TD_AVE_THROUGHPUT", 1)).getMessage());
        SeriesDocument infinite = new SeriesDocument("web", "TD_AVE_THROUGHPUT", "req/s", "10m", "lb2", 100, 100, 1, 1,
                1000, false, new long[] {100}, new Double[] {Double.POSITIVE_INFINITY});
        assertEquals("a value that is not a finite number",
                assertThrows(IllegalArgumentException.class, () -> infinite.toPoints("TD_AVE_THROUGHPUT", 1)).getMessage());
        SeriesDocument tooMany = new SeriesDocument("web", "TD_AVE_THROUGHPUT", "req/s", "10m", "lb2", 0, 1000, 1, 1,
                1000, false, new long[1001], new Double[1001]);
        assertEquals("1001 points, expected 1 to 1000",
                assertThrows(IllegalArgumentException.class, () -> tooMany.toPoints("TD_AVE_THROUGHPUT", 1)).getMessage());
    }
}
