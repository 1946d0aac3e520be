package io.loadwise.console.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The open stores under one directory ({@code <admin.dataDir>/rrd}). A store stays open once opened,
 * also after its cluster or node is deleted: its file is kept and its history can still be read (and
 * continues if the name comes back).
 */
public final class MetricStores implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MetricStores.class);

    private final Path root;
    private final Map<StoreKey, MetricStore> open = new ConcurrentHashMap<>();
    private volatile boolean closed;

    public MetricStores(Path root) {
        this.root = root;
    }

    public Path root() {
        return root;
    }

    /** The store of {@code key}, created if it does not exist yet (the writer's way in). */
    public MetricStore openOrCreate(StoreKey key) throws IOException {
        return get(key, true);
    }

    /** The store of {@code key} if one exists on disk, otherwise {@code null} (the readers' way in). */
    public MetricStore existing(StoreKey key) throws IOException {
        return get(key, false);
    }

    private MetricStore get(StoreKey key, boolean create) throws IOException {
        MetricStore store = open.get(key);
        if (store != null && !store.broken()) {
            return store;
        }
        Path file = key.file(root);
        if (file == null || (!create && !Files.exists(file))) {
            return null;
        }
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("metric stores closed");
            }
            store = open.get(key);
            if (store != null && store.broken()) {
                closeQuietly(key, store);
                open.remove(key);
                store = null;
            }
            if (store == null) {
                store = MetricStore.openOrCreate(file, key.catalog());
                open.put(key, store);
            }
            return store;
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
