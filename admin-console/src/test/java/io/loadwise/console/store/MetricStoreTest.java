package io.loadwise.console.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rrd4j.ConsolFun;
import org.rrd4j.core.FetchData;
import org.slf4j.LoggerFactory;

class MetricStoreTest {

    private static final long START = 1_800_000_000L;

    @TempDir
    Path dir;

    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    private final Logger storeLog = (Logger) LoggerFactory.getLogger(MetricStore.class);

    @BeforeEach
    void captureLog() {
        logged.start();
        storeLog.addAppender(logged);
    }

    @AfterEach
    void releaseLog() {
        storeLog.detachAppender(logged);
    }

    /** A row whose every value depends on the time, so a read-back proves which sample it came from. */
    static double[] row(SeriesCatalog catalog, long t) {
        double[] values = new double[catalog.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = (t % 1000) + i / 100.0;
        }
        return values;
    }

    static double[] oneSecondValues(MetricStore store, Series series, long from, long to) throws IOException {
        FetchData data = store.fetch(series, ConsolFun.AVERAGE, from, to, 1);
        long[] times = data.getTimestamps();
        double[] values = data.getValues(0);
        double[] out = new double[(int) (to - from + 1)];
        Arrays.fill(out, Double.NaN);
        for (int i = 0; i < times.length; i++) {
            if (times[i] >= from && times[i] <= to) {
                out[(int) (times[i] - from)] = values[i];
            }
        }
        return out;
    }

    @Test
    void restartKeepsEverySampleAndWritingContinues() throws Exception {
        Path file = dir.resolve("web").resolve("cluster.rrd");
        SeriesCatalog catalog = SeriesCatalog.CLUSTER;
        try (MetricStore store = MetricStore.openOrCreate(file, catalog, START)) {
            for (long t = START; t < START + 60; t++) {
                assertTrue(store.update(t, row(catalog, t)));
            }
        }
        try (MetricStore reopened = MetricStore.openOrCreate(file, catalog, START + 1000)) {
            assertEquals(START + 59, reopened.lastUpdateSeconds());
            Series throughput = catalog.find("TD_AVE_THROUGHPUT");
            double[] expected = new double[59];
            for (int i = 0; i < expected.length; i++) {
                expected[i] = row(catalog, START + 1 + i)[catalog.indexOf("TD_AVE_THROUGHPUT")];
            }
            assertArrayEquals(expected, oneSecondValues(reopened, throughput, START + 1, START + 59), 1e-9);
            assertTrue(reopened.update(START + 60, row(catalog, START + 60)));
            assertEquals(START + 60, reopened.lastUpdateSeconds());
        }
        assertEquals(List.of("cluster.rrd"), fileNames(file.getParent()));
        assertTrue(logged.list.stream().noneMatch(e -> e.getLevel() == Level.WARN), logged.list.toString());
    }

    @Test
    void aSecondSampleInTheSameSecondIsNotWritten() throws Exception {
        try (MetricStore store = MetricStore.openOrCreate(dir.resolve("c.rrd"), SeriesCatalog.CLUSTER, START)) {
            assertTrue(store.update(START, row(SeriesCatalog.CLUSTER, START)));
            assertFalse(store.update(START, row(SeriesCatalog.CLUSTER, START + 5)));
            assertThrows(IllegalArgumentException.class, () -> store.update(START + 1, new double[3]));
        }
    }

    @Test
    void anUnreadableFileIsMovedAsideWithAWarningAndAFreshStoreStarts() throws Exception {
        Path file = dir.resolve("cluster.rrd");
        byte[] garbage = "this is not an rrd file".getBytes();
        Files.write(file, garbage);
        try (MetricStore store = MetricStore.openOrCreate(file, SeriesCatalog.CLUSTER, START)) {
            assertTrue(store.update(START, row(SeriesCatalog.CLUSTER, START)));
        }
        List<String> names = fileNames(dir);
        assertEquals(2, names.size(), names.toString());
        String aside = names.stream().filter(n -> n.startsWith("cluster.rrd.corrupt-")).findFirst().orElseThrow();
        assertArrayEquals(garbage, Files.readAllBytes(dir.resolve(aside)), "the damaged file is kept as it was");
        assertTrue(logged.list.stream().anyMatch(e -> e.getLevel() == Level.WARN
                && e.getFormattedMessage().contains(aside)), logged.list.toString());
    }

    @Test
    void aTruncatedStoreIsMovedAside() throws Exception {
        Path file = dir.resolve("n1.rrd");
        MetricStore.openOrCreate(file, SeriesCatalog.CLUSTER, START).close();
        byte[] whole = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(whole, whole.length / 2));
        MetricStore.openOrCreate(file, SeriesCatalog.CLUSTER, START).close();
        assertEquals(whole.length, Files.size(file));
        assertEquals(1, fileNames(dir).stream().filter(n -> n.startsWith("n1.rrd.corrupt-")).count());
    }

    @Test
    void aStoreWithAnotherLayoutIsMovedAsideNotReused() throws Exception {
        Path file = dir.resolve("n1.rrd");
        MetricStore.openOrCreate(file, SeriesCatalog.CLUSTER, START).close();
        IOException strict = assertThrows(IOException.class, () -> MetricStore.open(file, SeriesCatalog.NODE));
        assertTrue(strict.getMessage().contains("expected"), strict.getMessage());
        try (MetricStore node = MetricStore.openOrCreate(file, SeriesCatalog.NODE, START)) {
            assertEquals(SeriesCatalog.NODE.size(), node.catalog().size());
        }
        assertEquals(1, fileNames(dir).stream().filter(n -> n.startsWith("n1.rrd.corrupt-")).count());
    }

    @Test
    void aCreationInterruptedByACrashLeavesOnlyAPartialFileWhichIsIgnored() throws Exception {
        Path file = dir.resolve("cluster.rrd");
        Files.write(dir.resolve("cluster.rrd.partial"), new byte[] {1, 2, 3});
        try (MetricStore store = MetricStore.openOrCreate(file, SeriesCatalog.CLUSTER, START)) {
            assertTrue(store.update(START, row(SeriesCatalog.CLUSTER, START)));
        }
        assertEquals(List.of("cluster.rrd"), fileNames(dir));
    }

    static List<String> fileNames(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
