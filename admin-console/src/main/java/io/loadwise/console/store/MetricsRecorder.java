package io.loadwise.console.store;

import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.ClusterStatus;
import io.loadwise.dispatcher.control.NodeStatus;
import io.loadwise.dispatcher.metrics.MetricsSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single writer of the metric stores: a background thread (never an event loop) that once a second
 * reads what {@link ClusterControl} knows (the newest history snapshot of every cluster and node, agent
 * samples, agent statistics) and appends one sample to each store. New clusters and nodes get new
 * stores on their first tick, within the disk budget; stores of deleted ones stop growing and are
 * deleted by a sweep once a minute (the first one on the first tick) after the retention period.
 */
public final class MetricsRecorder implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MetricsRecorder.class);
    private static final long WARN_INTERVAL_MILLIS = 60_000;
    static final long SWEEP_INTERVAL_MILLIS = 60_000;

    private final ClusterControl control;
    private final MetricStores stores;
    private final LongSupplier clockMillis;
    private final Map<StoreKey, Long> lastWarning = new ConcurrentHashMap<>();
    private ScheduledExecutorService writer;
    /** Clock time of the last sweep; {@code null} before the first. */
    private Long lastSweepMillis;

    public MetricsRecorder(ClusterControl control, MetricStores stores, LongSupplier clockMillis) {
        this.control = control;
        this.stores = stores;
        this.clockMillis = clockMillis;
    }

    /** Starts recording every second into stores under {@code root}, within {@code limits}. */
    public static MetricsRecorder start(ClusterControl control, Path root, StoreLimits limits) {
        try {
            Files.createDirectories(root);
            log.info("recording metrics into {}", root.toAbsolutePath());
        } catch (IOException e) {
            // The console still runs; every write will fail and say so (at most once a minute per store).
            log.warn("cannot create the metric store directory {}: {}; no metrics will be recorded until it can be",
                    root.toAbsolutePath(), e.toString());
        }
        MetricsRecorder recorder = new MetricsRecorder(control,
                new MetricStores(root, limits, DiskSpace.of(root), System::currentTimeMillis), System::currentTimeMillis);
        recorder.startWriter();
        return recorder;
    }

    private synchronized void startWriter() {
        writer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "loadwise-rrd-writer");
            t.setDaemon(true);
            return t;
        });
        writer.scheduleAtFixedRate(this::recordSafely, 1, 1, TimeUnit.SECONDS);
    }

    public MetricStores stores() {
        return stores;
    }

    private void recordSafely() {
        try {
            recordNow();
        } catch (RuntimeException e) {
            log.warn("metrics recording failed", e);
        }
    }

    /**
     * Appends one sample to every live cluster's and node's store, stamped with the current second.
     *
     * @return how many stores were written (a store already written this second is skipped)
     */
    public int recordNow() {
        long nowMillis = clockMillis.getAsLong();
        if (lastSweepMillis == null || nowMillis - lastSweepMillis >= SWEEP_INTERVAL_MILLIS) {
            lastSweepMillis = nowMillis;
            sweepNow();
        }
        long second = nowMillis / 1000;
        int written = 0;
        for (ClusterStatus cluster : control.clusterStatuses()) {
            String name = cluster.name();
            MetricsSnapshot latest = LastSecond.of(control.history(name), nowMillis);
            written += write(StoreKey.cluster(name), second, StoreSamples.cluster(latest));
            for (NodeStatus node : cluster.nodes()) {
                MetricsSnapshot nodeLatest = LastSecond.of(control.nodeHistory(name, node.name()), nowMillis);
                double[] row = StoreSamples.node(node.agent(), nodeLatest);
                written += write(StoreKey.node(name, node.name()), second, row);
            }
        }
        return written;
    }

    /**
     * Deletes the stores of clusters and nodes removed longer ago than the retention period, and
     * re-measures what the stores use.
     */
    public void sweepNow() {
        Set<StoreKey> live = new HashSet<>();
        for (ClusterStatus cluster : control.clusterStatuses()) {
            live.add(StoreKey.cluster(cluster.name()));
            for (NodeStatus node : cluster.nodes()) {
                live.add(StoreKey.node(cluster.name(), node.name()));
            }
        }
        try {
            stores.sweep(live);
        } catch (IOException | RuntimeException e) {
            log.warn("cannot clean up the metric store directory {}: {}", stores.root(), e.toString());
        }
        lastWarning.keySet().retainAll(live);
    }

    private int write(StoreKey key, long second, double[] row) {
        try {
            return stores.record(key, second, row) == MetricStores.Outcome.WRITTEN ? 1 : 0;
        } catch (IOException | RuntimeException e) {
            long now = clockMillis.getAsLong();
            Long last = lastWarning.get(key);
            if (last == null || now - last >= WARN_INTERVAL_MILLIS) {
                lastWarning.put(key, now);
                log.warn("cannot write the metric store of {}: {}", key, e.toString());
            }
            return 0;
        }
    }

    /** Stops the writer (waiting for a sample in progress) and closes the stores. */
    @Override
    public synchronized void close() {
        if (writer != null) {
            writer.shutdown();
            try {
                if (!writer.awaitTermination(10, TimeUnit.SECONDS)) {
                    log.warn("metrics writer did not stop within 10 s");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            writer = null;
        }
        stores.close();
    }
}
