package io.loadwise.dispatcher.runtime;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.metrics.CounterReading;
import io.loadwise.dispatcher.metrics.MetricsSnapshot;
import io.loadwise.dispatcher.metrics.TrafficCounters;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-second Table 2 figures of every cluster and node for the last hour. One scheduler thread, off the
 * event loops, reads the cumulative {@link TrafficCounters} once a second and stores the differences.
 *
 * <p>History is kept by cluster and node name. When a cluster is rebuilt (its configuration changed) its
 * new counters start from zero and its history carries on; a cluster or node that disappears loses its
 * history.
 */
public final class MetricsHistory implements AutoCloseable {

    public static final int DEFAULT_CAPACITY = 3600;
    private static final Logger log = LoggerFactory.getLogger(MetricsHistory.class);

    private final Supplier<List<VirtualCluster>> clusters;
    private final int capacity;
    private final LongSupplier nanoClock;
    private final Map<String, ClusterTrack> tracks = new ConcurrentHashMap<>();
    private ScheduledExecutorService scheduler;

    public MetricsHistory(Supplier<List<VirtualCluster>> clusters) {
        this(clusters, DEFAULT_CAPACITY, System::nanoTime);
    }

    public MetricsHistory(Supplier<List<VirtualCluster>> clusters, int capacity, LongSupplier nanoClock) {
        this.clusters = clusters;
        this.capacity = capacity;
        this.nanoClock = nanoClock;
    }

    /** Starts sampling once per second. */
    public synchronized void start() {
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "loadwise-metrics");
            t.setDaemon(true);
            return t;
        });
        sample();
        scheduler.scheduleAtFixedRate(this::sampleSafely, 1, 1, TimeUnit.SECONDS);
    }

    private void sampleSafely() {
        try {
            sample();
        } catch (RuntimeException e) {
            log.warn("metrics sampling failed", e);
        }
    }

    /** Takes one sample of every cluster now; the scheduler calls it every second, tests directly. */
    public void sample() {
        long now = nanoClock.getAsLong();
        long epochMillis = System.currentTimeMillis();
        Map<String, VirtualCluster> live = new HashMap<>();
        for (VirtualCluster cluster : clusters.get()) {
            live.put(cluster.name(), cluster);
            tracks.computeIfAbsent(cluster.name(), n -> new ClusterTrack()).sample(cluster, now, epochMillis);
        }
        tracks.keySet().retainAll(live.keySet());
    }

    public List<MetricsSnapshot> history(String cluster) {
        ClusterTrack track = tracks.get(cluster);
        return track == null ? List.of() : track.self.ring.toList();
    }

    public List<MetricsSnapshot> nodeHistory(String cluster, String node) {
        ClusterTrack track = tracks.get(cluster);
        Track nodeTrack = track == null ? null : track.nodes.get(node);
        return nodeTrack == null ? List.of() : nodeTrack.ring.toList();
    }

    @Override
    public synchronized void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            scheduler = null;
        }
    }

    /** History of one counter set: the previous reading and the ring of differences. */
    private final class Track {
        final SnapshotRing ring = new SnapshotRing(capacity);
        TrafficCounters source;
        CounterReading last;
        long lastNanos;

        void sample(TrafficCounters counters, long now, long epochMillis) {
            CounterReading reading = counters.read();
            if (source == null) {
                source = counters;
                last = reading;
                lastNanos = now;
                return;
            }
            if (counters != source) {
                // The cluster was rebuilt; its new counters started from zero.
                source = counters;
                last = CounterReading.ZERO;
            }
            double seconds = (now - lastNanos) / 1e9;
            if (seconds <= 0) {
                return;
            }
            ring.add(MetricsSnapshot.between(last, reading, seconds, epochMillis));
            last = reading;
            lastNanos = now;
        }
    }

    private final class ClusterTrack {
        final Track self = new Track();
        final Map<String, Track> nodes = new ConcurrentHashMap<>();

        synchronized void sample(VirtualCluster cluster, long now, long epochMillis) {
            self.sample(cluster.counters(), now, epochMillis);
            Map<String, NodeState> live = new HashMap<>();
            for (NodeState node : cluster.nodes()) {
                live.put(node.name(), node);
                nodes.computeIfAbsent(node.name(), n -> new Track()).sample(node.counters(), now, epochMillis);
            }
            nodes.keySet().retainAll(live.keySet());
        }
    }
}
