package io.loadwise.console.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rrd4j.ConsolFun;
import org.rrd4j.core.FetchData;
import org.rrd4j.core.RrdDb;
import org.rrd4j.core.Sample;

/**
 * A node store written by the previous version (issue 4's layout: every series, 10 s and 5 min archives)
 * is converted when opened: the series that never had a value go, the last hour stays exact at 1 s, and
 * the day archive's minutes are the consolidation of the old 10-second rows.
 */
class StoreConversionTest {

    /** Aligned to 30 minutes, so whole 1-minute and 30-minute rows are compared. */
    private static final long START = 1_800_000_000L;
    private static final long SECONDS = 2 * 3600;
    private static final String HEAP = "JVM_HEAP_USED%";

    @TempDir
    Path dir;

    /** What the old writer stored: the series every store holds and the heap, the other agent metrics unknown. */
    private static double value(int catalogIndex, long t) {
        return (t * 7 % 101) + catalogIndex / 100.0;
    }

    private Path firstLayoutStore() throws Exception {
        Path file = dir.resolve("n1.rrd");
        SeriesCatalog catalog = SeriesCatalog.NODE;
        try (RrdDb db = RrdDb.getBuilder().setRrdDef(StoreLayout.definition(file, catalog.series(),
                StoreLayout.FIRST_ARCHIVES, START + 1)).setBackendFactory(MetricStore.BACKEND).build()) {
            List<Series> written = new ArrayList<>(catalog.always());
            written.add(catalog.find(HEAP));
            for (long t = START + 1; t <= START + SECONDS; t++) {
                Sample sample = db.createSample(t);
                for (Series s : written) {
                    sample.setValue(s.dsName(), value(catalog.indexOf(s.metric()), t));
                }
                sample.update();
            }
        }
        return file;
    }

    @Test
    void aStoreOfTheFirstLayoutIsConvertedKeepingItsHistoryAndOnlyTheSeriesThatHadValues() throws Exception {
        Path file = firstLayoutStore();
        long oldSize = Files.size(file);
        Series heap = SeriesCatalog.NODE.find(HEAP);
        int heapIndex = SeriesCatalog.NODE.indexOf(HEAP);
        long end = START + SECONDS;
        try (MetricStore store = MetricStore.open(file, SeriesCatalog.NODE)) {
            assertEquals(SeriesCatalog.NODE.always().size() + 1, store.held().size());
            assertTrue(store.holds(heap));
            assertEquals(StoreLayout.bytesFor(store.held().size()), Files.size(file));
            assertTrue(Files.size(file) * 20 < oldSize, Files.size(file) + " bytes from " + oldSize);
            assertEquals(end, store.lastUpdateSeconds());

            double[] lastHour = MetricStoreTest.oneSecondValues(store, heap, end - 3599, end);
            for (int i = 0; i < lastHour.length; i++) {
                assertEquals(value(heapIndex, end - 3599 + i), lastHour[i], 1e-9, "second " + (end - 3599 + i));
            }

            FetchData minutes = store.fetch(heap, ConsolFun.AVERAGE, START + 60, end, 60);
            FetchData peaks = store.fetch(heap, ConsolFun.MAX, START + 60, end, 60);
            assertEquals(60, minutes.getArcStep());
            int compared = 0;
            for (int i = 0; i < minutes.getTimestamps().length; i++) {
                long row = minutes.getTimestamps()[i];
                if (row <= START + 60 || row > end) {
                    continue;
                }
                double sum = 0;
                double max = Double.NEGATIVE_INFINITY;
                for (long t = row - 59; t <= row; t++) {
                    sum += value(heapIndex, t);
                    max = Math.max(max, value(heapIndex, t));
                }
                assertEquals(sum / 60, minutes.getValues(0)[i], 1e-9, "average of the minute ending " + row);
                assertEquals(max, peaks.getValues(0)[i], 1e-9, "maximum of the minute ending " + row);
                compared++;
            }
            assertEquals(SECONDS / 60 - 1, compared);

            // And it carries on.
            double[] next = Rows.node(end + 1, HEAP);
            assertTrue(store.update(end + 1, next));
        }
        try (MetricStore reopened = MetricStore.open(file, SeriesCatalog.NODE)) {
            assertEquals(end + 1, reopened.lastUpdateSeconds());
        }
        assertEquals(List.of("n1.rrd"), MetricStoreTest.fileNames(dir), "converted in place, nothing set aside");
    }
}
