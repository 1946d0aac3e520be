package io.loadwise.dispatcher.store;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.LoadwiseConfig;
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
 * The clusters in etcd, one key per cluster ({@code <prefix>/clusters/<name>}, its JSON as in the file), and
 * the rest from this replica's file. A change is one etcd transaction that writes each changed cluster only
 * if its key still has the revision this replica last read: a concurrent edit of the same cluster on another
 * replica makes it fail ({@link ConfigConflictException}, 409), never a lost update. Edits of different
 * clusters do not conflict.
 *
 * <p>{@link #watch} follows the prefix from a thread of its own and hands every new state to the dispatcher,
 * which applies it through the same path as a local edit. When etcd cannot be reached the replica keeps the
 * configuration in force, edits are refused ({@link ConfigUnavailableException}, 503), and the watch retries
 * every half second and catches up with a full read when etcd is back. A value that does not parse or
 * validate is rejected with the validator's message and the configuration in force stays.
 */
public final class EtcdConfigSource implements ConfigSource {

    private static final Logger log = LoggerFactory.getLogger(EtcdConfigSource.class);
    private static final long RETRY_MILLIS = 500;

    private final EtcdClient etcd;
    private final String clustersPrefix;
    private final ConfigStore localFile;
    /** Each cluster as last read, with its key's revision: what edits compare against. */
    private final Map<String, Stored> revisions = new HashMap<>();
    private volatile boolean available = true;
    private volatile String lastRejection;
    private volatile Thread watcher;
    private final Object retry = new Object();
    private volatile boolean closed;

    /** @param localFile this replica's file: everything but the clusters */
    /** A cluster as read from etcd and the revision of its key then. */
    private record Stored(ClusterConfig cluster, long modRevision) {
    }

    public EtcdConfigSource(EtcdClient etcd, String prefix, ConfigStore localFile) {
        this.etcd = etcd;
        this.clustersPrefix = prefix + "/clusters/";
        this.localFile = localFile;
    }

    @Override
    public LoadwiseConfig read() throws ConfigValidationException {
        LoadwiseConfig local = localFile.load();
        return local.withClusters(readClusters(local).clusters());
    }

    private LoadwiseConfig readClusters(LoadwiseConfig local) throws ConfigValidationException {
        EtcdClient.Range range;
        try {
            range = etcd.rangePrefix(clustersPrefix);
            available = true;
        } catch (IOException e) {
            available = false;
            throw new ConfigValidationException("etcd " + etcd.describe() + " cannot be reached: " + e.getMessage());
        }
        List<ClusterConfig> clusters = new ArrayList<>();
        Map<String, Stored> read = new HashMap<>();
        List<String> errors = new ArrayList<>();
        for (EtcdClient.KeyValue kv : range.kvs()) {
            String name = kv.key().substring(clustersPrefix.length());
            try {
                ClusterConfig cluster = ConfigLoader.parseCluster(kv.value());
                if (!name.equals(cluster.name())) {
                    errors.add("etcd " + kv.key() + ": name '" + cluster.name() + "' does not match the key");
                }
                clusters.add(cluster);
                read.put(name, new Stored(cluster, kv.modRevision()));
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
        return local.withClusters(clusters);
    }

    @Override
    public void write(LoadwiseConfig previous, LoadwiseConfig next) {
        Map<String, ClusterConfig> before = byName(previous);
        Map<String, ClusterConfig> after = byName(next);
        EtcdClient.Txn txn = new EtcdClient.Txn();
        List<String> touched = new ArrayList<>();
        synchronized (revisions) {
            for (ClusterConfig cluster : after.values()) {
                if (!Objects.equals(before.get(cluster.name()), cluster)) {
                    String key = clustersPrefix + cluster.name();
                    txn.modRevisionIs(key, expectedRevision(cluster.name(), before.get(cluster.name())))
                            .put(key, ConfigLoader.toJson(cluster), 0);
                    touched.add(cluster.name());
                }
            }
            for (String name : before.keySet()) {
                if (!after.containsKey(name)) {
                    String key = clustersPrefix + name;
                    txn.modRevisionIs(key, expectedRevision(name, before.get(name))).delete(key);
                    touched.add(name);
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
            throw new ConfigConflictException("cluster " + touched + " was changed meanwhile (by another replica or"
                    + " config push); nothing was written. Read it again and repeat the change.");
        }
        synchronized (revisions) {
            for (String name : touched) {
                if (after.containsKey(name)) {
                    revisions.put(name, new Stored(after.get(name), revision));
                } else {
                    revisions.remove(name);
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
    private long expectedRevision(String name, ClusterConfig base) {
        Stored stored = revisions.get(name);
        if (stored == null) {
            return base == null ? 0 : -1;
        }
        return stored.cluster().equals(base) ? stored.modRevision() : -1;
    }

    /** Replaces every cluster under the prefix with those of {@code config} in one transaction (config push). */
    public long push(LoadwiseConfig config) throws IOException {
        // etcd refuses a transaction that deletes and puts the same key, so only the clusters no longer there
        // are deleted; the key set read is pinned with compares, so the whole push is one atomic step.
        EtcdClient.Txn txn = new EtcdClient.Txn();
        Map<String, ClusterConfig> pushed = byName(config);
        for (EtcdClient.KeyValue kv : etcd.rangePrefix(clustersPrefix).kvs()) {
            txn.modRevisionIs(kv.key(), kv.modRevision());
            if (!pushed.containsKey(kv.key().substring(clustersPrefix.length()))) {
                txn.delete(kv.key());
            }
        }
        for (ClusterConfig cluster : pushed.values()) {
            txn.put(clustersPrefix + cluster.name(), ConfigLoader.toJson(cluster), 0);
        }
        long revision = etcd.commit(txn);
        if (revision < 0) {
            throw new IOException("the clusters in etcd changed while they were being replaced; push again");
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
                revision = etcd.rangePrefix(clustersPrefix).revision();
                if (!available) {
                    log.info("etcd {} is back; catching up", etcd.describe());
                }
                available = true;
                deliver(applier);
                etcd.watchPrefix(clustersPrefix, revision + 1, changed -> deliver(applier));
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
        return "etcd " + etcd.describe() + " " + clustersPrefix;
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

    private static Map<String, ClusterConfig> byName(LoadwiseConfig config) {
        Map<String, ClusterConfig> map = new LinkedHashMap<>();
        for (ClusterConfig cluster : config.clustersOrEmpty()) {
            map.put(cluster.name(), cluster);
        }
        return map;
    }
}
