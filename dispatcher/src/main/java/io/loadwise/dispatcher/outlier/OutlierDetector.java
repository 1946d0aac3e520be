package io.loadwise.dispatcher.outlier;

import io.loadwise.dispatcher.cluster.NodeHandover;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.OutcomeSink;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.OutlierDetectionConfig;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Passive outlier detection of one HTTP cluster, after Envoy's: the exchange reports every answer and
 * gateway failure ({@link OutcomeSink}); a node that reaches {@code consecutive5xx} 5xx answers (a 404 on a path
 * other nodes serve counts as one, {@code FailedAnswers}) or gateway failures in a row, or {@code consecutiveGatewayFailures} gateway failures (including 502, 503 and 504
 * answers) in a row, is ejected: out of selection for {@code baseEjectionMs} times the number of its
 * ejections in a row, at most {@code maxEjectionMs}. Each base period the node then spends without
 * ejection forgives one. At most {@code maxEjectionPercent} of the nodes are ejected at once: a cluster
 * never ejects itself empty because its backend (not its nodes) is broken.
 *
 * <p>The counting runs on the event loops: per node two plain counters in an {@link OutlierCounters}, no
 * lock and no allocation. Only an ejection (rare) takes the cluster-wide count and schedules the
 * readmission on {@code scheduler}, where the node's slow start begins before it is usable again.
 */
public final class OutlierDetector implements OutcomeSink {

    private static final Logger log = LoggerFactory.getLogger(OutlierDetector.class);

    private final VirtualCluster cluster;
    private final ScheduledExecutorService scheduler;
    private final LongSupplier nanoClock;
    private final LongSupplier wallClock;
    private final int consecutive5xx;
    private final int consecutiveGateway;
    private final long baseEjectionNanos;
    private final long maxEjectionNanos;
    private final int maxEjected;
    private final OutlierCounters[] perNode;
    private final AtomicInteger ejectedNow = new AtomicInteger();

    public OutlierDetector(VirtualCluster cluster, OutlierDetectionConfig config, ScheduledExecutorService scheduler,
            LongSupplier nanoClock, LongSupplier wallClock) {
        this.cluster = cluster;
        this.scheduler = scheduler;
        this.nanoClock = nanoClock;
        this.wallClock = wallClock;
        this.consecutive5xx = config.consecutive5xxOrDefault();
        this.consecutiveGateway = config.consecutiveGatewayFailuresOrDefault();
        this.baseEjectionNanos = TimeUnit.MILLISECONDS.toNanos(config.baseEjectionMsOrDefault());
        this.maxEjectionNanos = TimeUnit.MILLISECONDS.toNanos(config.maxEjectionMsOrDefault());
        List<NodeState> nodes = cluster.nodes();
        this.maxEjected = nodes.size() * config.maxEjectionPercentOrDefault() / 100;
        this.perNode = new OutlierCounters[nodes.size()];
        for (int i = 0; i < perNode.length; i++) {
            perNode[i] = new OutlierCounters();
        }
    }

    @Override
    public void onResponse(NodeState node, int status) {
        OutlierCounters c = perNode[node.index()];
        if (status < 500) {
            c.success();
            return;
        }
        boolean gateway = status == 502 || status == 503 || status == 504;
        judge(node, c.serverError(gateway));
    }

    @Override
    public void onFailedAnswer(NodeState node) {
        judge(node, perNode[node.index()].serverError(false));
    }

    @Override
    public void onGatewayFailure(NodeState node) {
        judge(node, perNode[node.index()].serverError(true));
    }

    /** {@code packed}: the two run lengths after this outcome, as {@link OutlierCounters} packs them. */
    private void judge(NodeState node, long packed) {
        int errors = OutlierCounters.errors(packed);
        int gateway = OutlierCounters.gatewayFailures(packed);
        if ((consecutive5xx > 0 && errors == consecutive5xx)
                || (consecutiveGateway > 0 && gateway == consecutiveGateway)) {
            eject(node, errors, gateway);
        }
    }

    private void eject(NodeState node, int errors, int gateway) {
        OutlierCounters c = perNode[node.index()];
        if (node.ejected() || !c.claimEjection()) {
            return; // another event loop is ejecting it, or it is out already
        }
        int now;
        do {
            now = ejectedNow.get();
            if (now >= maxEjected) {
                c.releaseClaim();
                log.warn("cluster {}: node {} failed {} times in a row ({} at the gateway) but stays: {} of {} "
                        + "nodes ejected already (maxEjectionPercent)", cluster.name(), node.name(), errors,
                        gateway, now, perNode.length);
                c.reset();
                return;
            }
        } while (!ejectedNow.compareAndSet(now, now + 1));
        long nowNanos = nanoClock.getAsLong();
        int multiplier = c.nextMultiplier(nowNanos, baseEjectionNanos);
        long duration = Math.min(maxEjectionNanos, baseEjectionNanos * multiplier);
        long durationMillis = TimeUnit.NANOSECONDS.toMillis(duration);
        node.setEjected(true, wallClock.getAsLong() + durationMillis);
        node.counters().ejected();
        cluster.counters().ejected();
        cluster.requestRefresh();
        log.warn("cluster {}: node {} ejected for {} ms ({} failures in a row, {} at the gateway; ejection {} in a row)",
                cluster.name(), node.name(), durationMillis, errors, gateway, multiplier);
        try {
            scheduler.schedule(() -> readmit(node), duration, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // the dispatcher is shutting down: nothing will pick again
        }
    }

    /**
     * A rebuilt cluster's detector takes over, for the nodes {@code handover} kept, what {@code previous} (the
     * replaced cluster's) counted: the run lengths, the ejections in a row, and an ejection under way, which
     * ends when it would have (the readmission is scheduled here again). Runs before the cluster takes traffic.
     */
    public void adopt(OutlierDetector previous, NodeHandover handover) {
        long nowMillis = wallClock.getAsLong();
        for (NodeState node : cluster.nodes()) {
            NodeState old = handover.previousOf(node);
            if (old == null || old.index() >= previous.perNode.length) {
                continue;
            }
            OutlierCounters c = perNode[node.index()];
            c.adopt(previous.perNode[old.index()]);
            long until = old.ejectedUntilMillis();
            if (old.ejected() && until > nowMillis && c.claimEjection()) {
                ejectedNow.incrementAndGet();
                node.setEjected(true, until);
                try {
                    scheduler.schedule(() -> readmit(node), until - nowMillis, TimeUnit.MILLISECONDS);
                } catch (RejectedExecutionException e) {
                    // the dispatcher is shutting down: nothing will pick again
                }
            }
        }
    }

    /** The ejection is over: the node ramps up (slow start) as it returns. Runs on the scheduler. */
    void readmit(NodeState node) {
        OutlierCounters c = perNode[node.index()];
        c.reset();
        c.readmitted(nanoClock.getAsLong());
        cluster.readmitting(node);
        node.setEjected(false, 0);
        ejectedNow.decrementAndGet();
        c.releaseClaim();
        cluster.refresh();
        log.info("cluster {}: node {} readmitted after ejection", cluster.name(), node.name());
    }

    /** Nodes ejected now. */
    public int ejectedNow() {
        return ejectedNow.get();
    }
}
