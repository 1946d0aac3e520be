package io.loadwise.dispatcher.monitor;

import io.loadwise.dispatcher.cluster.VirtualCluster;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds the pickers of clusters that received new agent data, at most once per period. Piggybacked
 * reports can arrive thousands of times a second; pickers are rebuilt ten times a second at most, on the
 * monitor thread, never on an event loop.
 */
final class RefreshCoalescer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RefreshCoalescer.class);

    private final Set<VirtualCluster> dirty = ConcurrentHashMap.newKeySet();
    private final ScheduledFuture<?> task;

    RefreshCoalescer(ScheduledExecutorService executor, long periodMillis) {
        this.task = executor.scheduleWithFixedDelay(this::flush, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
    }

    void markDirty(VirtualCluster cluster) {
        dirty.add(cluster);
    }

    /** Rebuilds every dirty cluster now. */
    void flush() {
        for (VirtualCluster cluster : dirty) {
            dirty.remove(cluster);
            try {
                cluster.refresh();
            } catch (RuntimeException e) {
                // A policy that throws while rebuilding keeps its previous picker; the next sample retries.
                log.warn("cluster {}: rebuilding the {} picker failed: {}", cluster.name(), cluster.policy().id(),
                        e.toString());
            }
        }
    }

    @Override
    public void close() {
        task.cancel(false);
    }
}
