package io.loadwise.dispatcher.health;

import io.loadwise.dispatcher.cluster.HealthReport;
import io.loadwise.dispatcher.cluster.HealthReport.CheckResult;
import io.loadwise.dispatcher.cluster.HealthState;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.HealthCheckConfig;
import io.loadwise.dispatcher.config.StatusRanges;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The active health check of one node: a probe every {@code intervalMs} (±10 % jitter, so that the checks
 * of many nodes and many dispatchers do not fall into step), judged by a {@link HealthTracker}. A change
 * of state is published to the node ({@link NodeState#setHealth}) and the cluster's picker is rebuilt; a
 * node that comes back up starts its slow start first. One check at a time per node: the next is
 * scheduled only when the previous has its verdict.
 */
final class NodeCheck {

    private static final Logger log = LoggerFactory.getLogger(NodeCheck.class);
    private static final double JITTER = 0.1;

    private final VirtualCluster cluster;
    private final NodeState node;
    private final HealthCheckConfig spec;
    private final StatusRanges expect;
    private final Duration timeout;
    private final HttpClient http;
    private final ScheduledExecutorService scheduler;
    private final LongSupplier wallClock;
    private final HealthTracker tracker;
    private volatile boolean stopped;
    private volatile ScheduledFuture<?> next;

    NodeCheck(VirtualCluster cluster, NodeState node, HealthCheckConfig spec, HttpClient http,
            ScheduledExecutorService scheduler, LongSupplier wallClock) {
        this.cluster = cluster;
        this.node = node;
        this.spec = spec;
        this.expect = StatusRanges.parse(spec.expectStatusOrDefault());
        this.timeout = Duration.ofMillis(spec.timeoutMsOrDefault());
        this.http = http;
        this.scheduler = scheduler;
        this.wallClock = wallClock;
        this.tracker = new HealthTracker(spec.riseOrDefault(), spec.fallOrDefault());
    }

    /**
     * Starts checking after a random part of one interval, so the cluster's nodes are not checked at once. The
     * node starts {@link HealthState#UNKNOWN}, unless {@code previous} (the check of the same node in the cluster
     * this one replaces, or {@code null}) checked it the same way: then it goes on where that check stood.
     */
    void start(NodeCheck previous) {
        if (previous != null && previous.spec.equals(spec)) {
            tracker.adopt(previous.tracker);
            node.setHealth(previous.node.health());
        } else {
            node.setHealth(new HealthReport(true, HealthState.UNKNOWN, null));
        }
        schedule((long) (ThreadLocalRandom.current().nextDouble() * spec.intervalMsOrDefault()));
    }

    NodeState node() {
        return node;
    }

    void stop() {
        stopped = true;
        ScheduledFuture<?> f = next;
        if (f != null) {
            f.cancel(false);
        }
    }

    private void schedule(long delayMillis) {
        if (stopped) {
            return;
        }
        try {
            next = scheduler.schedule(this::check, delayMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            stopped = true; // shutting down
        }
    }

    private void check() {
        if (stopped) {
            return;
        }
        long start = System.nanoTime();
        CompletableFuture<Probe.Verdict> verdict = spec.path() == null
                ? Probe.connect(node.address(), timeout)
                : Probe.http(http, node.address(), spec.path(), expect, timeout);
        verdict.thenAccept(v -> judge(v, start));
    }

    private void judge(Probe.Verdict verdict, long startNanos) {
        if (stopped) {
            return;
        }
        long elapsedNanos = System.nanoTime() - startNanos;
        try {
            record(verdict, TimeUnit.NANOSECONDS.toMillis(elapsedNanos));
        } finally {
            long interval = spec.intervalMsOrDefault();
            long jittered = Math.round(interval * (1 + JITTER * (2 * ThreadLocalRandom.current().nextDouble() - 1)));
            schedule(Math.max(0, jittered - TimeUnit.NANOSECONDS.toMillis(elapsedNanos)));
        }
    }

    /** Runs on one thread at a time (a check's verdict), never on an event loop. */
    void record(Probe.Verdict verdict, long durationMillis) {
        HealthState before = tracker.state();
        HealthState after = tracker.record(verdict.ok());
        CheckResult result = new CheckResult(wallClock.getAsLong(), verdict.ok(), verdict.status(), durationMillis,
                verdict.problem());
        if (before == HealthState.DOWN && after == HealthState.UP) {
            cluster.readmitting(node); // slow start begins before the node is usable
        }
        node.setHealth(new HealthReport(true, after, result));
        if (verdict.ok() && node.awaitingReadiness() && node.markReady()) {
            // connect failures held it out until its application answers: this check says it does (issue 32)
            log.info("cluster {}: node {} is ready: its health check passed; back in selection", cluster.name(),
                    node.name());
            cluster.refresh();
        }
        if (after != before) {
            if (after == HealthState.DOWN) {
                log.warn("cluster {}: node {} is down: {} health checks in a row failed, the last: {}",
                        cluster.name(), node.name(), spec.fallOrDefault(), verdict.problem());
            } else if (after == HealthState.UP) {
                log.info("cluster {}: node {} is up ({})", cluster.name(), node.name(),
                        before == HealthState.DOWN ? spec.riseOrDefault() + " health checks in a row passed"
                                : "first health check passed");
            }
            if (before == HealthState.DOWN || after == HealthState.DOWN) {
                cluster.refresh();
            }
        }
    }
}
