package io.loadwise.console.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A store's series read as points: at the archive's step, or consolidated to stay within the point cap. */
class SeriesPointsTest {

    /** A multiple of 4 and of 60, so both grids start on a whole step. */
    private static final long START = 1_795_000_080L;

    @TempDir
    Path dir;

    private static double[] row(SeriesCatalog catalog, String metric, double value) {
        double[] row = new double[catalog.size()];
        Arrays.fill(row, 0);
        row[catalog.indexOf(metric)] = value;
        return row;
    }

    @Test
    void oneSecondStepsAreReadAsTheyAreAndAnHourAsMeansOfFourSeconds() throws Exception {
        Series throughput = SeriesCatalog.CLUSTER.find("TD_AVE_THROUGHPUT");
        try (MetricStore store = MetricStore.openOrCreate(dir.resolve("c.rrd"), SeriesCatalog.CLUSTER, START)) {
            // Seconds START+1 .. START+8 hold 1, 2, ..., 8.
            for (int i = 1; i <= 8; i++) {
                assertTrue(store.update(START + i, row(SeriesCatalog.CLUSTER, "TD_AVE_THROUGHPUT", i)));
            }
            long end = START + 8;

            SeriesPoints tenMinutes = SeriesPoints.read(store, throughput, Window.TEN_MINUTES, end);
            assertEquals(601, tenMinutes.size());
            assertEquals(end, tenMinutes.end());
            for (int i = 1; i <= 8; i++) {
                assertEquals(i, tenMinutes.valueAt(START + i), 1e-9, "second " + i);
            }
            assertTrue(Double.isNaN(tenMinutes.valueAt(START - 10)), "before the first sample: unknown");

            SeriesPoints hour = SeriesPoints.read(store, throughput, Window.ONE_HOUR, end);
            assertEquals(4, hour.step());
            assertEquals(1, hour.archiveStep());
            assertEquals(901, hour.size());
            // The point at t holds the seconds (t - 4, t].
            assertEquals((1 + 2 + 3 + 4) / 4.0, hour.valueAt(START + 4), 1e-9);
            assertEquals((5 + 6 + 7 + 8) / 4.0, hour.valueAt(START + 8), 1e-9);
            assertTrue(Double.isNaN(hour.valueAt(START - 4)), "before the store began: unknown");
            assertEquals(hour.valueAt(START + 8), hour.valueCovering(START + 5), 1e-9, "drawn as steps");
        }
    }

    @Test
    void aStoreThatDoesNotHoldTheSeriesReadsAsUnknownOnTheSameGrid() throws Exception {
        SeriesPoints none = SeriesPoints.read(null, SeriesCatalog.CLUSTER.find("TD_AVE_THROUGHPUT"), Window.ONE_DAY,
                START + 30);
        assertEquals(120, none.step());
        assertEquals(721, none.size());
        assertEquals(0, none.end() % 120);
        assertTrue(Arrays.stream(none.values()).allMatch(Double::isNaN));
    }
}
