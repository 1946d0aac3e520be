package io.loadwise.console.store;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.rrd4j.ConsolFun;
import org.rrd4j.core.FetchData;
import org.rrd4j.core.FetchRequest;
import org.rrd4j.core.RrdBackendFactory;
import org.rrd4j.core.RrdDb;
import org.rrd4j.core.RrdDef;
import org.rrd4j.core.Sample;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One rrd4j file of one cluster or node, open for writing and reading.
 *
 * <p>Crash safety. rrd4j updates a file in place, one sample as thousands of small writes. The store
 * writes through {@link JournaledBackend}, which makes each sample all-or-nothing (a redo record in
 * {@code <name>.journal}, then the writes to the memory-mapped file); a killed process (kill -9) loses at
 * most the sample it was writing, and the next open completes or drops it. The file's structure (header,
 * data source and archive definitions) is never rewritten after creation, and creation writes a
 * temporary file that is moved into place only when complete. On open the store is validated (size,
 * header, layout, a read of every archive); one that fails is moved aside as
 * {@code <name>.corrupt-<time>} with a WARN and a fresh store is started, so nothing is lost silently.
 */
public final class MetricStore implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MetricStore.class);
    private static final RrdBackendFactory BACKEND = new JournaledBackendFactory();
    private static final DateTimeFormatter ASIDE_STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");

    private final Path file;
    private final SeriesCatalog catalog;
    private final RrdDb db;
    /** A sample failed half-way: rrd4j's in-memory copy may differ from the file, so the store must be reopened. */
    private volatile boolean broken;

    private MetricStore(Path file, SeriesCatalog catalog, RrdDb db) {
        this.file = file;
        this.catalog = catalog;
        this.db = db;
    }

    /**
     * Opens the store at {@code file}, creating it when there is none and replacing (after moving it
     * aside) one that is unreadable or has another layout.
     */
    public static MetricStore openOrCreate(Path file, SeriesCatalog catalog) throws IOException {
        return openOrCreate(file, catalog, System.currentTimeMillis() / 1000);
    }

    /** As {@link #openOrCreate(Path, SeriesCatalog)}; a new store accepts samples after {@code startSeconds - 1}. */
    static MetricStore openOrCreate(Path file, SeriesCatalog catalog, long startSeconds) throws IOException {
        if (Files.exists(file)) {
            try {
                return open(file, catalog);
            } catch (IOException | RuntimeException e) {
                Path aside = moveAside(file);
                log.warn("metric store {} is unreadable or has another layout ({}); moved it to {} and started a new one",
                        file, e, aside.getFileName());
            }
        }
        return create(file, catalog, startSeconds);
    }

    /**
     * Opens an existing store and validates it.
     *
     * @throws IOException when it is missing, unreadable or not laid out for {@code catalog}
     */
    public static MetricStore open(Path file, SeriesCatalog catalog) throws IOException {
        int replayed = JournaledBackend.recover(file);
        if (replayed > 0) {
            log.info("metric store {}: completed the sample a stopped writer left half-written ({} writes)",
                    file, replayed);
        }
        long expectedSize = StoreLayout.definition(file, catalog, 1).getEstimatedSize();
        long size = Files.size(file);
        if (size != expectedSize) {
            throw new IOException("size " + size + " bytes, expected " + expectedSize);
        }
        RrdDb db = RrdDb.getBuilder().setPath(file.toString()).setBackendFactory(BACKEND).build();
        try {
            validate(db, catalog);
        } catch (IOException | RuntimeException e) {
            db.close();
            throw e;
        }
        return new MetricStore(file, catalog, db);
    }

    private static void validate(RrdDb db, SeriesCatalog catalog) throws IOException {
        List<String> differences = StoreLayout.differences(db, catalog);
        if (!differences.isEmpty()) {
            throw new IOException(String.join("; ", differences));
        }
        long last = db.getLastUpdateTime();
        for (StoreLayout.ArchiveSpec archive : StoreLayout.ARCHIVES) {
            long step = archive.resolutionSeconds();
            long end = last - last % step;
            FetchRequest request = db.createFetchRequest(archive.function(), end - step, end, step);
            request.setFilter(catalog.series().get(0).dsName());
            request.fetchData();
        }
    }

    private static MetricStore create(Path file, SeriesCatalog catalog, long startSeconds) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Path partial = file.resolveSibling(file.getFileName() + ".partial");
        Files.deleteIfExists(partial);
        RrdDef def = StoreLayout.definition(partial, catalog, startSeconds);
        RrdDb.getBuilder().setRrdDef(def).setBackendFactory(BACKEND).build().close();
        try {
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING);
        }
        log.info("created metric store {} ({} series, {} MB)", file, catalog.size(),
                Files.size(file) / (1024 * 1024));
        return open(file, catalog);
    }

    private static Path moveAside(Path file) throws IOException {
        String stamp = ZonedDateTime.now(ZoneOffset.UTC).format(ASIDE_STAMP);
        Path aside = file.resolveSibling(file.getFileName() + ".corrupt-" + stamp);
        for (int i = 1; Files.exists(aside); i++) {
            aside = file.resolveSibling(file.getFileName() + ".corrupt-" + stamp + "-" + i);
        }
        Files.move(file, aside);
        Path journal = JournaledBackend.journalOf(file);
        if (Files.exists(journal)) {
            Files.move(journal, JournaledBackend.journalOf(aside));
        }
        return aside;
    }

    public Path file() {
        return file;
    }

    public SeriesCatalog catalog() {
        return catalog;
    }

    /** Time of the last sample, epoch seconds. */
    public synchronized long lastUpdateSeconds() throws IOException {
        return db.getLastUpdateTime();
    }

    /**
     * Stores one sample; {@code values} in catalog order, {@code NaN} for unknown.
     *
     * @return false when {@code epochSeconds} is not after the last sample (nothing written)
     */
    public synchronized boolean update(long epochSeconds, double[] values) throws IOException {
        if (values.length != catalog.size()) {
            throw new IllegalArgumentException(values.length + " values for " + catalog.size() + " series");
        }
        checkUsable();
        if (epochSeconds <= db.getLastUpdateTime()) {
            return false;
        }
        JournaledBackend backend = (JournaledBackend) db.getRrdBackend();
        backend.begin();
        try {
            Sample sample = db.createSample(epochSeconds);
            sample.setValues(values);
            sample.update();
        } catch (IOException | RuntimeException e) {
            // Nothing reached the file; rrd4j's cached state did change, hence reopen.
            backend.rollback();
            broken = true;
            throw e;
        }
        backend.commit();
        return true;
    }

    /** Consolidated values of one series between two instants (epoch seconds) at about {@code resolution}. */
    public synchronized FetchData fetch(Series series, ConsolFun function, long start, long end, long resolution)
            throws IOException {
        checkUsable();
        FetchRequest request = db.createFetchRequest(function, start, end, resolution);
        request.setFilter(series.dsName());
        return request.fetchData();
    }

    /** True when a failed sample left the store to be reopened ({@link MetricStores} does that). */
    boolean broken() {
        return broken;
    }

    private void checkUsable() {
        if (broken) {
            throw new IllegalStateException("metric store " + file + " must be reopened after a failed sample");
        }
    }

    @Override
    public synchronized void close() throws IOException {
        db.close();
    }

    boolean isClosed() {
        return db.isClosed();
    }
}
