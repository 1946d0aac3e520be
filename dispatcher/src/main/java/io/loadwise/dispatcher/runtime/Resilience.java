package io.loadwise.dispatcher.runtime;

import io.loadwise.dispatcher.cluster.NodeHandover;
import io.loadwise.dispatcher.cluster.SlowStart;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.health.HealthChecker;
import io.loadwise.dispatcher.outlier.OutlierDetector;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * What keeps a cluster's failing nodes out and lets returning ones in gently (issue 15): active health
 * checks, outlier detection and slow start, each set up per cluster as its configuration asks. They share
 * one scheduler thread and one HTTP client, apart from the event loops; only outlier detection is fed from
 * the event loops, through {@link VirtualCluster#outcomes()}.
 */
final class Resilience implements AutoCloseable {

    private final ScheduledExecutorService scheduler;
    private final LongSupplier nanoClock;
    private final LongSupplier wallClock;
    private final Map<VirtualCluster, Guard> guards = new ConcurrentHashMap<>();
    private HttpClient http;

    /** What runs for one cluster; any part may be {@code null}. */
    private record Guard(HealthChecker health, ScheduledFuture<?> slowStartTicks) {
    }

    Resilience(LongSupplier nanoClock, LongSupplier wallClock) {
        this.nanoClock = nanoClock;
        this.wallClock = wallClock;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "loadwise-resilience");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts what the cluster's configuration asks for; a cluster watched already is left as it is. */
    synchronized void watch(VirtualCluster cluster) {
        watch(cluster, NodeHandover.NONE);
    }

    /**
     * As {@link #watch(VirtualCluster)} for a cluster that replaces {@code handover}'s previous one: the nodes it
     * kept go on with their health check state, outlier run lengths and ejection, and slow start ramp, and the
     * picker is rebuilt with them. Call it before the cluster takes traffic.
     */
    synchronized void watch(VirtualCluster cluster, NodeHandover handover) {
        if (guards.containsKey(cluster)) {
            return;
        }
        VirtualCluster previous = handover.previous();
        Guard before = previous == null ? null : guards.get(previous);
        ClusterConfig config = cluster.config();
        ScheduledFuture<?> ticks = null;
        if (config.slowStartMsOrDefault() > 0) {
            SlowStart slowStart = new SlowStart(cluster, config.slowStartMsOrDefault(), nanoClock);
            cluster.setSlowStart(slowStart);
            slowStart.adopt(previous == null ? null : previous.slowStart(), handover);
            ticks = scheduler.scheduleAtFixedRate(slowStart::tick, SlowStart.TICK_MILLIS, SlowStart.TICK_MILLIS,
                    TimeUnit.MILLISECONDS);
        }
        if (config.outlierDetection() != null) {
            OutlierDetector detector = new OutlierDetector(cluster, config.outlierDetection(), scheduler, nanoClock,
                    wallClock);
            if (previous != null && previous.outcomes() instanceof OutlierDetector old) {
                detector.adopt(old, handover);
            }
            cluster.setOutcomes(detector);
        }
        HealthChecker health = null;
        if (config.healthCheck() != null || config.nodesOrEmpty().stream().anyMatch(n -> n.healthCheck() != null)) {
            health = new HealthChecker(cluster, httpClient(), scheduler, wallClock); // the client only when needed
            health.start(before == null ? null : before.health(), handover);
        }
        guards.put(cluster, new Guard(health, ticks));
        if (previous != null) {
            cluster.refresh(); // the kept health and ejections count from the first pick
        }
    }

    /** Stops the cluster's checks and ticks; its nodes keep their last state. */
    synchronized void unwatch(VirtualCluster cluster) {
        Guard guard = guards.remove(cluster);
        if (guard == null) {
            return;
        }
        if (guard.health() != null) {
            guard.health().close();
        }
        if (guard.slowStartTicks() != null) {
            guard.slowStartTicks().cancel(false);
        }
    }

    private HttpClient httpClient() {
        if (http == null) {
            http = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(10)) // each check has its own, shorter, timeout
                    .followRedirects(HttpClient.Redirect.NEVER)
                    .build();
        }
        return http;
    }

    @Override
    public synchronized void close() {
        for (VirtualCluster cluster : Map.copyOf(guards).keySet()) {
            unwatch(cluster);
        }
        scheduler.shutdownNow();
    }
}
