package io.loadwise.console.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stores under one directory ({@code <admin.dataDir>/rrd}), within a disk budget.
 *
 * <p>A store is created on the first sample of its cluster or node, holding the series that sample has
 * values for (and the dispatcher's own figures, which every store holds); it grows when the node reports
 * more. Before a store is created or grown, {@link StoreAdmission} checks the budget and the free space;
 * a refused cluster or node is logged once, shown by {@link #usage()}, simply not recorded (the proxy is
 * not affected), and tried again once a minute. {@link #sweep} deletes the stores of removed clusters and
 * nodes after the retention period and re-measures the directory.
 */
public final class MetricStores implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MetricStores.class);

    /** What {@link #record} did. */
    public enum Outcome {
        WRITTEN,
        /** The store already has a sample of this second. */
        NOT_NEWER,
        /** No store: the budget or the disk refused it. */
        REFUSED
    }

    private final Path root;
    private final StoreLimits limits;
    private final StoreAdmission admission;
    private final DiskSpace disk;
    private final LongSupplier clockMillis;
    private final Map<StoreKey, MetricStore> open = new ConcurrentHashMap<>();
    private final Refusals refusals = new Refusals();
    /** Bytes of every file under the root: measured by each sweep, kept up to date in between. */
    private long usedBytes;
    private int storeCount;
    private List<StoreSweep.Pending> pending = List.of();
    private boolean closed;

    /** Stores with the default limits on the real file system. */
    public MetricStores(Path root) {
        this(root, StoreLimits.defaults(), DiskSpace.of(root), System::currentTimeMillis);
    }

    public MetricStores(Path root, StoreLimits limits, DiskSpace disk, LongSupplier clockMillis) {
        this.root = root;
        this.limits = limits;
        this.disk = disk;
        this.clockMillis = clockMillis;
        this.admission = new StoreAdmission(root, limits.budgetBytes(), disk);
        try {
            StoreSweep.Result found = StoreSweep.measure(root);
            this.usedBytes = found.usedBytes();
            this.storeCount = found.storeCount();
        } catch (IOException e) {
            log.warn("cannot measure the metric store directory {}: {}", root, e.toString());
        }
    }

    public Path root() {
        return root;
    }

    /**
     * Appends a sample ({@code row} in catalog order) to the store of {@code key}, creating or growing
     * the store first when the limits allow.
     */
    public Outcome record(StoreKey key, long epochSeconds, double[] row) throws IOException {
        MetricStore store = open.get(key);
        if (store == null || store.broken()) {
            store = openForWriting(key, epochSeconds, row);
            if (store == null) {
                return Outcome.REFUSED;
            }
        }
        List<Series> missing = store.missing(row);
        if (!missing.isEmpty()) {
            grow(key, store, missing);
        }
        return store.update(epochSeconds, row) ? Outcome.WRITTEN : Outcome.NOT_NEWER;
    }

    /** The store of {@code key} if one exists on disk, otherwise {@code null} (the readers' way in). */
    public MetricStore existing(StoreKey key) throws IOException {
        MetricStore store = open.get(key);
        if (store != null && !store.broken()) {
            return store;
        }
        Path file = key.file(root);
        if (file == null || !Files.exists(file)) {
            return null;
        }
        synchronized (this) {
            return openExisting(key, file);
        }
    }

    private synchronized MetricStore openForWriting(StoreKey key, long epochSeconds, double[] row)
            throws IOException {
        Path file = key.file(root);
        if (file == null) {
            throw new IllegalArgumentException(key + " is not made of configuration names");
        }
        MetricStore store = openExisting(key, file);
        if (store != null) {
            return store;
        }
        long now = clockMillis.getAsLong();
        if (!refusals.mayTry(key, now)) {
            return null;
        }
        List<Series> series = key.catalog().required(row);
        long size = StoreLayout.bytesFor(series.size());
        String refusal = admission.refusal(usedBytes, size, size);
        if (refusal != null) {
            refusals.refused(key, "store", refusal, now);
            return null;
        }
        try {
            store = MetricStore.create(file, key.catalog(), series, epochSeconds);
        } catch (IOException | RuntimeException e) {
            // A full or failing disk: try again in a minute, not every second.
            refusals.refused(key, "store", "creating it failed: " + e, now);
            return null;
        }
        usedBytes += store.sizeBytes();
        storeCount++;
        open.put(key, store);
        refusals.accepted(key);
        return store;
    }

    /**
     * The open store of {@code key}, or the file opened (reopened when broken); {@code null} when there is
     * no file, or it was unusable and has been moved aside.
     */
    private MetricStore openExisting(StoreKey key, Path file) throws IOException {
        checkOpen();
        MetricStore store = open.get(key);
        if (store != null && !store.broken()) {
            return store;
        }
        if (store != null) {
            closeQuietly(key, store);
            open.remove(key);
        }
        if (!Files.exists(file)) {
            return null;
        }
        long before = Files.size(file);
        try {
            store = MetricStore.open(file, key.catalog());
        } catch (IOException | RuntimeException e) {
            // Kept as <file>.corrupt-<time> (still counted) until the retention period has passed.
            MetricStore.moveAsideWithWarning(file, e);
            storeCount--;
            return null;
        }
        // Opening converts a store of the first layout, which changes its size.
        usedBytes += store.sizeBytes() - before;
        open.put(key, store);
        return store;
    }

    private synchronized void grow(StoreKey key, MetricStore store, List<Series> missing) throws IOException {
        long now = clockMillis.getAsLong();
        if (!refusals.mayTry(key, now)) {
            return;
        }
        long current = store.sizeBytes();
        long after = StoreLayout.bytesFor(store.held().size() + missing.size());
        String refusal = admission.refusal(usedBytes, after - current, after);
        if (refusal != null) {
            refusals.refused(key, missing.size() + " more series " + metrics(missing), refusal, now);
            return;
        }
        try {
            usedBytes += store.grow(missing) - current;
        } catch (IOException | RuntimeException e) {
            // The store is reopened as it was (or, if even that failed, on the next sample).
            refusals.refused(key, missing.size() + " more series " + metrics(missing), "rewriting it failed: " + e, now);
            return;
        }
        refusals.accepted(key);
    }

    private static List<String> metrics(List<Series> series) {
        return series.stream().map(Series::metric).toList();
    }

    /**
     * Deletes the stores of clusters and nodes not in {@code live} once their retention period has passed
     * (closing them first), forgets refusals of removed ones, and re-measures the directory.
     */
    public synchronized void sweep(Set<StoreKey> live) throws IOException {
        checkOpen();
        StoreSweep.Result result = StoreSweep.run(root, live, clockMillis.getAsLong(), limits.retentionMillis(), key -> {
            MetricStore store = open.remove(key);
            if (store != null) {
                closeQuietly(key, store);
            }
        });
        usedBytes = result.usedBytes();
        storeCount = result.storeCount();
        pending = result.pending();
        refusals.retainOnly(live);
    }

    /** What the stores use and what was refused, for the API. */
    public synchronized StoreUsage usage() {
        long free = -1;
        long reserve = -1;
        try {
            free = disk.usableBytes();
            reserve = StoreAdmission.reserveBytes(disk.totalBytes());
        } catch (IOException | RuntimeException e) {
            log.debug("cannot read the free space of {}: {}", root, e.toString());
        }
        List<StoreUsage.Refused> refused = refusals.list().stream().map(r -> new StoreUsage.Refused(
                r.key().cluster(), r.key().node(), r.what(), r.reason(), r.sinceMillis())).toList();
        List<StoreUsage.PendingRemoval> removals = pending.stream().map(p -> new StoreUsage.PendingRemoval(
                p.key().cluster(), p.key().node(), p.deleteAtMillis())).toList();
        return new StoreUsage(usedBytes, limits.budgetBytes(), storeCount, free, reserve, limits.retentionMillis(),
                refused, removals);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("metric stores closed");
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        open.forEach(MetricStores::closeQuietly);
        open.clear();
    }

    private static void closeQuietly(StoreKey key, MetricStore store) {
        try {
            store.close();
        } catch (IOException | RuntimeException e) {
            log.warn("could not close metric store of {}: {}", key, e.toString());
        }
    }
}
