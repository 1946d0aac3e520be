package io.loadwise.console.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.rrd4j.ConsolFun;
import org.rrd4j.core.FetchData;
import org.rrd4j.core.FetchRequest;
import org.rrd4j.core.RrdBackendFactory;
import org.rrd4j.core.RrdDb;
import org.rrd4j.core.Sample;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One rrd4j file of one cluster or node, open for writing and reading. It holds the series of its
 * catalog that its cluster or node reports ({@link #held()}); a series it does not hold reads as unknown,
 * and {@link #grow} rewrites the file with more series when they appear.
 *
 * <p>Crash safety. rrd4j updates a file in place, one sample as thousands of small writes. The store
 * writes through {@link JournaledBackend}, which makes each sample all-or-nothing (a redo record in
 * {@code <name>.journal}, then the writes to the memory-mapped file); a killed process (kill -9) loses at
 * most the sample it was writing, and the next open completes or drops it. The file's structure (header,
 * data source and archive definitions) is never rewritten in place: creation and {@link #grow} write a
 * temporary file that is moved into place only when complete. On open the store is validated (size,
 * header, layout, a read of every archive); one that fails is moved aside as
 * {@code <name>.corrupt-<time>} with a WARN and a fresh store is started, so nothing is lost silently.
 */
public final class MetricStore implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MetricStore.class);
    static final RrdBackendFactory BACKEND = new JournaledBackendFactory();
    private static final DateTimeFormatter ASIDE_STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");

    private final Path file;
    private final SeriesCatalog catalog;
    private RrdDb db;
    /** The series of the file, in data source order. */
    private List<Series> held;
    /** For each catalog index, the data source index in the file, or -1. */
    private int[] dsIndex;
    /** A sample failed half-way: rrd4j's in-memory copy may differ from the file, so the store must be reopened. */
    private volatile boolean broken;

    private MetricStore(Path file, SeriesCatalog catalog, RrdDb db) throws IOException {
        this.file = file;
        this.catalog = catalog;
        attach(db);
    }

    private void attach(RrdDb opened) throws IOException {
        this.db = opened;
        List<Series> series = new ArrayList<>();
        int[] index = new int[catalog.size()];
        Arrays.fill(index, -1);
        String[] names = opened.getDsNames();
        for (int i = 0; i < names.length; i++) {
            Series s = catalog.findByDsName(names[i]);
            series.add(s);
            index[catalog.indexOf(s.metric())] = i;
        }
        this.held = List.copyOf(series);
        this.dsIndex = index;
    }

    /**
     * Opens the store at {@code file} holding every series of the catalog, creating it when there is none
     * and replacing (after moving it aside) one that is unreadable or has another layout.
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
                moveAsideWithWarning(file, e);
            }
        }
        return create(file, catalog, catalog.series(), startSeconds);
    }

    /**
     * Opens an existing store and validates it. A store of the first archive layout (issue 4) is
     * converted first, keeping its history and only the series that ever had a value.
     *
     * @throws IOException when it is missing, unreadable or not laid out for {@code catalog}
     */
    public static MetricStore open(Path file, SeriesCatalog catalog) throws IOException {
        int replayed = JournaledBackend.recover(file);
        if (replayed > 0) {
            log.info("metric store {}: completed the sample a stopped writer left half-written ({} writes)",
                    file, replayed);
        }
        RrdDb db = RrdDb.getBuilder().setPath(file.toString()).setBackendFactory(BACKEND).build();
        try {
            if (StoreLayout.archivesOf(db).equals(StoreLayout.FIRST_ARCHIVES)
                    && StoreLayout.differences(db, catalog, StoreLayout.FIRST_ARCHIVES).isEmpty()) {
                List<Series> keep = seriesWithValues(db, catalog);
                long before = Files.size(file);
                db.close();
                long after = StoreRebuild.rewrite(file, keep, BACKEND);
                log.info("metric store {}: converted to the current archive layout, {} series kept, {} -> {} bytes",
                        file, keep.size(), before, after);
                db = RrdDb.getBuilder().setPath(file.toString()).setBackendFactory(BACKEND).build();
            }
            validate(db, catalog, Files.size(file));
        } catch (IOException | RuntimeException e) {
            db.close();
            throw e;
        }
        return new MetricStore(file, catalog, db);
    }

    /** The series every store holds plus those with at least one known value in some archive. */
    private static List<Series> seriesWithValues(RrdDb db, SeriesCatalog catalog) throws IOException {
        List<Series> keep = new ArrayList<>();
        for (Series s : catalog.series()) {
            if (!db.containsDs(s.dsName())) {
                continue;
            }
            boolean known = catalog.always().contains(s);
            int d = db.getDsIndex(s.dsName());
            for (int a = 0; !known && a < db.getArcCount(); a++) {
                for (double v : db.getArchive(a).getRobin(d).getValues()) {
                    if (!Double.isNaN(v)) {
                        known = true;
                        break;
                    }
                }
            }
            if (known) {
                keep.add(s);
            }
        }
        return keep;
    }

    private static void validate(RrdDb db, SeriesCatalog catalog, long size) throws IOException {
        List<String> differences = StoreLayout.differences(db, catalog, StoreLayout.ARCHIVES);
        if (!differences.isEmpty()) {
            throw new IOException(String.join("; ", differences));
        }
        long expectedSize = db.getRrdDef().getEstimatedSize();
        if (size != expectedSize) {
            throw new IOException("size " + size + " bytes, expected " + expectedSize);
        }
        long last = db.getLastUpdateTime();
        String firstDs = db.getDsNames()[0];
        for (StoreLayout.ArchiveSpec archive : StoreLayout.ARCHIVES) {
            long step = archive.resolutionSeconds();
            long end = last - last % step;
            FetchRequest request = db.createFetchRequest(archive.function(), end - step, end, step);
            request.setFilter(firstDs);
            request.fetchData();
        }
    }

    /**
     * Creates a store holding {@code series} (of {@code catalog}, which must include
     * {@link SeriesCatalog#always()}), replacing any file at {@code file}.
     */
    static MetricStore create(Path file, SeriesCatalog catalog, List<Series> series, long startSeconds)
            throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Path partial = StoreRebuild.partialOf(file);
        Files.deleteIfExists(partial);
        RrdDb.getBuilder().setRrdDef(StoreLayout.definition(partial, inCatalogOrder(catalog, series), startSeconds))
                .setBackendFactory(BACKEND).build().close();
        StoreRebuild.moveIntoPlace(partial, file);
        log.info("created metric store {} ({} series, {} bytes)", file, series.size(), Files.size(file));
        return open(file, catalog);
    }

    private static List<Series> inCatalogOrder(SeriesCatalog catalog, List<Series> series) {
        List<Series> out = new ArrayList<>();
        for (Series s : catalog.series()) {
            if (series.contains(s)) {
                out.add(s);
            }
        }
        if (out.size() != series.size()) {
            throw new IllegalArgumentException("series not of this catalog: " + series);
        }
        return out;
    }

    /** Moves an unusable store aside as {@code <file>.corrupt-<time>} and says so. */
    static Path moveAsideWithWarning(Path file, Exception why) throws IOException {
        Path aside = moveAside(file);
        log.warn("metric store {} is unreadable or has another layout ({}); moved it to {} and started a new one",
                file, why, aside.getFileName());
        return aside;
    }

    private static Path moveAside(Path file) throws IOException {
        String stamp = ZonedDateTime.now(ZoneOffset.UTC).format(ASIDE_STAMP);
        Path aside = file.resolveSibling(file.getFileName() + ".corrupt-" + stamp);
        for (int i = 1; Files.exists(aside); i++) {
            aside = file.resolveSibling(file.getFileName() + ".corrupt-" + stamp + "-" + i);
        }
        Files.move(file, aside);
        // Kept for the retention period from now, not from the store's last write (see StoreSweep).
        Files.setLastModifiedTime(aside, FileTime.fromMillis(System.currentTimeMillis()));
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

    /** The series this store holds, in data source order. */
    public synchronized List<Series> held() {
        return held;
    }

    /** Whether the store holds {@code series} (one it does not hold has no recorded values). */
    public synchronized boolean holds(Series series) {
        int i = catalog.indexOf(series.metric());
        return i >= 0 && dsIndex[i] >= 0;
    }

    /** The series that have a known value in {@code row} (catalog order) but that this store does not hold. */
    public synchronized List<Series> missing(double[] row) {
        List<Series> out = new ArrayList<>();
        for (Series s : catalog.required(row)) {
            if (dsIndex[catalog.indexOf(s.metric())] < 0) {
                out.add(s);
            }
        }
        return out;
    }

    /** The size of the file in bytes. */
    public synchronized long sizeBytes() throws IOException {
        return Files.size(file);
    }

    /** Time of the last sample, epoch seconds. */
    public synchronized long lastUpdateSeconds() throws IOException {
        return db.getLastUpdateTime();
    }

    /**
     * Stores one sample; {@code values} in catalog order, {@code NaN} for unknown. Values of series the
     * store does not hold are left out.
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
        double[] row = new double[held.size()];
        for (int i = 0; i < values.length; i++) {
            if (dsIndex[i] >= 0) {
                row[dsIndex[i]] = values[i];
            }
        }
        JournaledBackend backend = (JournaledBackend) db.getRrdBackend();
        backend.begin();
        try {
            Sample sample = db.createSample(epochSeconds);
            sample.setValues(row);
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

    /**
     * Rewrites the file holding {@code more} series too, keeping all history (see {@link StoreRebuild}).
     * Readers wait while it runs; if it fails the store is reopened as it was.
     *
     * @return the size of the file afterwards
     */
    public synchronized long grow(List<Series> more) throws IOException {
        checkUsable();
        List<Series> wanted = new ArrayList<>(held);
        for (Series s : more) {
            if (!wanted.contains(s)) {
                wanted.add(s);
            }
        }
        db.close();
        try {
            StoreRebuild.rewrite(file, inCatalogOrder(catalog, wanted), BACKEND);
        } finally {
            try {
                RrdDb reopened = RrdDb.getBuilder().setPath(file.toString()).setBackendFactory(BACKEND).build();
                validate(reopened, catalog, Files.size(file));
                attach(reopened);
            } catch (IOException | RuntimeException e) {
                broken = true;
                throw e;
            }
        }
        log.info("metric store {} now holds {} series ({} bytes)", file, held.size(), Files.size(file));
        return Files.size(file);
    }

    /**
     * Consolidated values of one series the store holds between two instants (epoch seconds) at about
     * {@code resolution}.
     *
     * @throws IllegalArgumentException for a series the store does not hold (see {@link #holds})
     */
    public synchronized FetchData fetch(Series series, ConsolFun function, long start, long end, long resolution)
            throws IOException {
        checkUsable();
        if (!holds(series)) {
            throw new IllegalArgumentException(file + " does not hold " + series.metric());
        }
        FetchRequest request = db.createFetchRequest(StoreLayout.readFunction(function, resolution), start, end,
                resolution);
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
        if (db.isClosed()) {
            throw new IllegalStateException("metric store " + file + " is closed");
        }
    }

    @Override
    public synchronized void close() throws IOException {
        db.close();
    }

    synchronized boolean isClosed() {
        return db.isClosed();
    }
}
