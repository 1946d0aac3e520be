package io.loadwise.console.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two states a kill can leave a sample in, built exactly: the journal record complete but the file
 * not yet written (the sample is replayed on open), and the record incomplete (the sample is dropped,
 * the file is as before it).
 */
class JournalRecoveryTest {

    private static final long START = 1_800_000_000L;

    @TempDir
    Path dir;

    /** Writes samples up to {@code START + 9}, then leaves the state of a kill during the sample of START + 10. */
    private Path killedDuringSample(boolean recordComplete) throws Exception {
        Path file = dir.resolve("n1.rrd");
        Path journal = JournaledBackend.journalOf(file);
        byte[] before;
        byte[] record;
        try (MetricStore store = MetricStore.openOrCreate(file, SeriesCatalog.NODE, START)) {
            for (long t = START; t < START + 10; t++) {
                store.update(t, MetricStoreTest.row(SeriesCatalog.NODE, t));
            }
            before = Files.readAllBytes(file);
            store.update(START + 10, MetricStoreTest.row(SeriesCatalog.NODE, START + 10));
            // Applied records are invalidated (magic zeroed) but stay in the file until close.
            record = Files.readAllBytes(journal);
        }
        assertFalse(Files.exists(journal), "a cleanly closed store leaves no journal");
        ByteBuffer.wrap(record).putLong(0, JournaledBackend.MAGIC);
        Files.write(file, before);
        // The journal file is never shortened, so it can end with the tail of an earlier, longer record:
        // cut this sample's record (magic, payload length, checksum, payload) itself in half.
        int recordLength = 8 + 4 + 8 + ByteBuffer.wrap(record).getInt(8);
        Files.write(journal, recordComplete ? record : Arrays.copyOf(record, recordLength / 2));
        return file;
    }

    @Test
    void aCompleteRecordIsReplayedSoTheSampleIsWholeAfterTheKill() throws Exception {
        Path file = killedDuringSample(true);
        try (MetricStore store = MetricStore.open(file, SeriesCatalog.NODE)) {
            assertEquals(START + 10, store.lastUpdateSeconds());
            for (Series s : SeriesCatalog.NODE.series()) {
                double[] read = MetricStoreTest.oneSecondValues(store, s, START + 10, START + 10);
                assertEquals(MetricStoreTest.row(SeriesCatalog.NODE, START + 10)[SeriesCatalog.NODE.indexOf(s.metric())],
                        read[0], 1e-9, s.metric());
            }
        }
        assertFalse(Files.exists(JournaledBackend.journalOf(file)));
    }

    @Test
    void anIncompleteRecordIsDroppedAndTheSampleCanBeWrittenAgain() throws Exception {
        Path file = killedDuringSample(false);
        try (MetricStore store = MetricStore.open(file, SeriesCatalog.NODE)) {
            assertEquals(START + 9, store.lastUpdateSeconds());
            assertTrue(store.update(START + 10, MetricStoreTest.row(SeriesCatalog.NODE, START + 10)));
            Series heap = SeriesCatalog.NODE.find("JVM_HEAP_USED%");
            double[] read = MetricStoreTest.oneSecondValues(store, heap, START + 1, START + 10);
            for (int i = 0; i < read.length; i++) {
                assertEquals(MetricStoreTest.row(SeriesCatalog.NODE, START + 1 + i)[SeriesCatalog.NODE.indexOf(heap.metric())],
                        read[i], 1e-9, "second " + (START + 1 + i));
            }
        }
    }
}
