package io.loadwise.dispatcher.store;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.ListenerConfig;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.RateLimitConfig;
import io.loadwise.dispatcher.control.ConfigConflictException;
import io.loadwise.dispatcher.control.ConfigUnavailableException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shared part of the configuration in etcd, one key per entry, its JSON as in the file:
 * {@code <prefix>/clusters/<name>}, {@code <prefix>/listeners/<name>} and {@code <prefix>/rateLimits/<name>}; the
 * rest comes from this replica's file (whose own clusters, listeners and rate limits are not used). A change is
 * one etcd transaction that writes each changed entry only if its key still has the revision this replica last
 * read: a concurrent edit of the same cluster, listener or rate limit on another replica makes it fail
 * ({@link ConfigConflictException}, 409), never a lost update. Edits of different entries do not conflict.
 *
 * <p>{@link #watch} follows those keys from a thread of its own and hands every new state to the dispatcher,
 * which applies it through the same path as a local edit. When etcd cannot be reached the replica keeps the
 * configuration in force, edits are refused ({@link ConfigUnavailableException}, 503), and the watch retries
 * every half second and catches up with a full read when etcd is back. A value that does not parse or
 * validate is rejected with the validator's message and the configuration in force stays.
 */
public final class EtcdConfigSource implements ConfigSource {

    private static final Logger log = LoggerFactory.getLogger(EtcdConfigSource.class);
    private static final long RETRY_MILLIS = 500;

    /** The kinds of entry, each under {@code <prefix>/<kind>/}; in key order, so one range reads them all. */
    private static final String CLUSTERS = "clusters";
    private static final String LISTENERS = "listeners";
    private static final String RATE_LIMITS = "rateLimits";

    private final EtcdClient etcd;
    private final String base;
    private final String clustersPrefix;
    private final ConfigStore localFile;
    /** Each entry as last read, by key, with the key's revision: what edits compare against. */
    private final Map<String, Stored> revisions = new HashMap<>();
    private volatile boolean available = true;
    private volatile String lastRejection;
    private volatile Thread watcher;
    private final Object retry = new Object();
    private volatile boolean closed;

    /** An entry (a cluster, listener or rate limit) as read from etcd and the revision of its key then. */
    private record Stored(Object entry, long modRevision) {
    }

    /** @param localFile this replica's file: everything but the clusters, listeners and rate limits */
    public EtcdConfigSource(EtcdClient etcd, String prefix, ConfigStore localFile) {
        this.etcd = etcd;
        this.base = prefix + "/";
        this.clustersPrefix = base + CLUSTERS + "/";
        this.localFile = localFile;
    }

    /** The first key of the shared entries ({@code clusters/} sorts first). */
    private String firstKey() {
        return clustersPrefix;
    }

    /** Just past the last key of the shared entries ({@code rateLimits/} sorts last, before {@code replicas/}). */
    private String endKey() {
        return EtcdClient.prefixEnd(base + RATE_LIMITS + "/");
    }

    @Override
    public LoadwiseConfig read() throws ConfigValidationException {
        return readShared(localFile.load());
    }

    private LoadwiseConfig readShared(LoadwiseConfig local) throws ConfigValidationException {
        EtcdClient.Range range;
        try {
            range = etcd.range(firstKey(), endKey());
            available = true;
        } catch (IOException e) {
            available = false;
            throw new ConfigValidationException("etcd " + etcd.describe() + " cannot be reached: " + e.getMessage());
        }
        List<ClusterConfig> clusters = new ArrayList<>();
        List<ListenerConfig> listeners = new ArrayList<>();
        Map<String, RateLimitConfig> limits = new LinkedHashMap<>();
        Map<String, Stored> read = new HashMap<>();
        List<String> errors = new ArrayList<>();
        for (EtcdClient.KeyValue kv : range.kvs()) {
            String path = kv.key().substring(base.length());
            int slash = path.indexOf('/');
            String kind = slash < 0 ? path : path.substring(0, slash);
            String name = slash < 0 ? "" : path.substring(slash + 1);
            try {
                Object entry;
                switch (kind) {
                    case CLUSTERS -> {
                        ClusterConfig cluster = ConfigLoader.parseCluster(kv.value());
                        nameMatches(kv.key(), name, cluster.name(), errors);
                        clusters.add(cluster);
                        entry = cluster;
                    }
                    case LISTENERS -> {
                        ListenerConfig listener = ConfigLoader.parseListener(kv.value());
                        nameMatches(kv.key(), name, listener.name(), errors);
                        listeners.add(listener);
                        entry = listener;
                    }
                    case RATE_LIMITS -> {
                        RateLimitConfig limit = ConfigLoader.parseRateLimit(kv.value());
                        limits.put(name, limit);
                        entry = limit;
                    }
                    default -> {
                        continue; // another kind of key between them (none today): not Loadwise's configuration
                    }
                }
                read.put(kv.key(), new Stored(entry, kv.modRevision()));
            } catch (ConfigValidationException e) {
                for (String error : e.errors()) {
                    errors.add("etcd " + kv.key() + ": " + error);
                }
            }
        }
        if (!errors.isEmpty()) {
            throw new ConfigValidationException(errors);
        }
        synchronized (revisions) {
            revisions.clear();
            revisions.putAll(read);
        }
        return local.withClusters(clusters).withListeners(listeners.isEmpty() ? null : listeners,
                limits.isEmpty() ? null : limits);
    }

    private static void nameMatches(String key, String name, String inValue, List<String> errors) {
        if (!name.equals(inValue)) {
            errors.add("etcd " + key + ": name '" + inValue + "' does not match the key");
        }
    }

    @Override
    public void write(LoadwiseConfig previous, LoadwiseConfig next) {
        Map<String, Object> before = entries(previous);
        Map<String, Object> after = entries(next);
        EtcdClient.Txn txn = new EtcdClient.Txn();
        List<String> touched = new ArrayList<>();
        synchronized (revisions) {
            for (Map.Entry<String, Object> e : after.entrySet()) {
                String key = e.getKey();
                if (!Objects.equals(before.get(key), e.getValue())) {
                    txn.modRevisionIs(key, expectedRevision(key, before.get(key)))
                            .put(key, ConfigLoader.toJson(e.getValue()), 0);
                    touched.add(key);
                }
            }
            for (String key : before.keySet()) {
                if (!after.containsKey(key)) {
                    txn.modRevisionIs(key, expectedRevision(key, before.get(key))).delete(key);
                    touched.add(key);
                }
            }
        }
        if (touched.isEmpty()) {
            return;
        }
        long revision;
        try {
            revision = etcd.commit(txn);
            available = true;
        } catch (IOException e) {
            available = false;
            throw new ConfigUnavailableException("etcd " + etcd.describe() + " cannot be reached (" + e.getMessage()
                    + "): the change was not made. The configuration in force is kept and keeps serving; edits are"
                    + " refused until etcd is back.");
        }
        if (revision < 0) {
            List<String> what = new ArrayList<>();
            for (String key : touched) {
                what.add(key.substring(base.length()));
            }
            throw new ConfigConflictException(String.join(", ", what) + " was changed meanwhile (by another replica"
                    + " or config push); nothing was written. Read it again and repeat the change.");
        }
        synchronized (revisions) {
            for (String key : touched) {
                if (after.containsKey(key)) {
                    revisions.put(key, new Stored(after.get(key), revision));
                } else {
                    revisions.remove(key);
                }
            }
        }
    }

    /**
     * The revision the key must still have for a change based on {@code base} (the cluster in force on this
     * replica, {@code null} when it has none). When etcd was read since and holds something else than
     * {@code base} (the watch has not applied it yet), the change is based on an old version: -1 makes the
     * compare fail, so it is refused as a conflict instead of overwriting what it never saw.
     */
    private long expectedRevision(String key, Object base) {
        Stored stored = revisions.get(key);
        if (stored == null) {
            return base == null ? 0 : -1;
        }
        return stored.entry().equals(base) ? stored.modRevision() : -1;
    }

    /**
     * Replaces every cluster, listener and rate limit under the prefix with those of {@code config} in one
     * transaction (config push).
     */
    public long push(LoadwiseConfig config) throws IOException {
        // etcd refuses a transaction that deletes and puts the same key, so only the entries no longer there
        // are deleted; the key set read is pinned with compares, so the whole push is one atomic step.
        EtcdClient.Txn txn = new EtcdClient.Txn();
        Map<String, Object> pushed = entries(config);
        for (EtcdClient.KeyValue kv : etcd.range(firstKey(), endKey()).kvs()) {
            txn.modRevisionIs(kv.key(), kv.modRevision());
            if (!pushed.containsKey(kv.key())) {
                txn.delete(kv.key());
            }
        }
        for (Map.Entry<String, Object> e : pushed.entrySet()) {
            txn.put(e.getKey(), ConfigLoader.toJson(e.getValue()), 0);
        }
        long revision = etcd.commit(txn);
        if (revision < 0) {
            throw new IOException("the configuration in etcd changed while it was being replaced; push again");
        }
        return revision;
    }

    @Override
    public synchronized void watch(Applier applier) {
        Thread thread = new Thread(() -> follow(applier), "loadwise-etcd-watch");
        thread.setDaemon(true);
        watcher = thread;
        thread.start();
    }

    private void follow(Applier applier) {
        while (!closed) {
            long revision;
            try {
                revision = etcd.range(firstKey(), endKey()).revision();
                if (!available) {
                    log.info("etcd {} is back; catching up", etcd.describe());
                }
                available = true;
                deliver(applier);
                etcd.watchRange(firstKey(), endKey(), revision + 1, changed -> deliver(applier));
            } catch (IOException | RuntimeException e) {
                if (closed) {
                    return;
                }
                if (available) {
                    log.warn("etcd {} cannot be reached ({}): serving the configuration in force, edits are refused"
                            + " until it is back", etcd.describe(), e.getMessage());
                }
                available = false;
            }
            synchronized (retry) {
                try {
                    retry.wait(RETRY_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /** Reads the whole state again and hands it over; a rejection is logged and kept for the API. */
    private void deliver(Applier applier) {
        try {
            LoadwiseConfig next = read();
            applier.apply(next);
            lastRejection = null;
        } catch (ConfigValidationException e) {
            if (!available) {
                return;
            }
            String message = String.join("; ", e.errors());
            if (!message.equals(lastRejection)) {
                log.error("etcd: configuration rejected, the configuration in force is kept: {}", message);
            }
            lastRejection = message;
        }
    }

    /** Whether the last call reached etcd. */
    public boolean available() {
        return available;
    }

    /** The validator's messages of the last state read from etcd that was rejected, or {@code null}. */
    public String lastRejection() {
        return lastRejection;
    }

    @Override
    public String describe() {
        return "etcd " + etcd.describe() + " " + base;
    }

    @Override
    public void close() {
        closed = true;
        Thread thread = watcher;
        if (thread != null) {
            thread.interrupt();
        }
        synchronized (retry) {
            retry.notifyAll();
        }
    }

    /** Every shared entry of {@code config} by its etcd key. */
    private Map<String, Object> entries(LoadwiseConfig config) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (ClusterConfig cluster : config.clustersOrEmpty()) {
            map.put(clustersPrefix + cluster.name(), cluster);
        }
        for (ListenerConfig listener : config.listenersOrEmpty()) {
            map.put(base + LISTENERS + "/" + listener.name(), listener);
        }
        config.rateLimitsOrEmpty().forEach((name, limit) -> map.put(base + RATE_LIMITS + "/" + name, limit));
        return map;
    }
}
