package io.loadwise.dispatcher.cluster;

import java.util.List;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cluster's slow start ({@code slowStartMs}, HAProxy's {@code slowstart}, NGINX's {@code slow_start}): a
 * node that comes back (health check up, ejection over, connect failures over, enabled or no longer
 * draining) keeps at first {@link #INITIAL_SHARE} of the picks its policy gives it, and linearly more
 * until it keeps all of them after {@code slowStartMs}.
 *
 * <p>Nothing of this runs on a pick: {@link #tick()} runs on a timer (every {@link #TICK_MILLIS} ms) off
 * the event loops. It notices nodes that became usable, recomputes every ramping node's factor and
 * publishes them to the cluster ({@link VirtualCluster#setRamp}), which wraps its picker in a
 * {@link RampingPicker} only while some node ramps. The components that readmit a node themselves
 * (health checks, outlier detection) call {@link #begin} first, so the node never gets a full share
 * between its return and the next tick. Nodes usable when the cluster starts do not ramp.
 */
public final class SlowStart {

    /** The share of its picks a node keeps at the start of its ramp (Envoy's default minimum weight, 10 %). */
    public static final double INITIAL_SHARE = 0.1;
    /** How often ramp factors are recomputed and returning nodes are noticed. */
    public static final long TICK_MILLIS = 100;

    private static final Logger log = LoggerFactory.getLogger(SlowStart.class);

    private final VirtualCluster cluster;
    private final long durationNanos;
    private final LongSupplier nanoClock;
    private final boolean[] wasUsable;
    /** nanoClock time each node's ramp began; meaningful while {@link #ramping}. */
    private final long[] rampStart;
    private final boolean[] ramping;

    public SlowStart(VirtualCluster cluster, long durationMillis, LongSupplier nanoClock) {
        if (durationMillis <= 0) {
            throw new IllegalArgumentException("slow start needs a positive duration, got " + durationMillis);
        }
        this.cluster = cluster;
        this.durationNanos = durationMillis * 1_000_000L;
        this.nanoClock = nanoClock;
        List<NodeState> nodes = cluster.nodes();
        this.wasUsable = new boolean[nodes.size()];
        this.rampStart = new long[nodes.size()];
        this.ramping = new boolean[nodes.size()];
        for (int i = 0; i < wasUsable.length; i++) {
            wasUsable[i] = nodes.get(i).inService(); // the node's own state: a group switch ramps nothing
        }
    }

    /**
     * A rebuilt cluster's slow start takes over the ramps under way in the cluster it replaces, for the nodes
     * kept ({@link NodeHandover}): a kept node goes on ramping where it was, and one usable before is not
     * ramped at all (as for any node usable when a cluster starts).
     */
    public void adopt(SlowStart previous, NodeHandover handover) {
        if (previous == null) {
            return;
        }
        List<NodeState> nodes = cluster.nodes();
        synchronized (previous) {
            synchronized (this) {
                for (int i = 0; i < ramping.length; i++) {
                    NodeState old = handover.previousOf(nodes.get(i));
                    if (old != null && old.index() < previous.ramping.length && previous.ramping[old.index()]) {
                        ramping[i] = true;
                        rampStart[i] = previous.rampStart[old.index()];
                    }
                }
                publish(nanoClock.getAsLong());
            }
        }
    }

    /** The node is about to be readmitted: its ramp starts now, before it becomes usable. */
    public synchronized void begin(NodeState node) {
        int i = node.index();
        rampStart[i] = nanoClock.getAsLong();
        // Only armed here: the caller (an ejection that ended, a health check that passed) may not be the
        // last gate, so "usable again" is logged by tick() when the node really is back in selection.
        log.debug("cluster {}: node {} readmitted by one check; slow start armed", cluster.name(), node.name());
        ramping[i] = true;
        publish(rampStart[i]);
    }

    /**
     * Notices nodes that became usable since the last tick, ends ramps that are complete and publishes the
     * factors.
     *
     * @return whether some node is still ramping
     */
    public synchronized boolean tick() {
        long now = nanoClock.getAsLong();
        List<NodeState> nodes = cluster.nodes();
        for (int i = 0; i < wasUsable.length; i++) {
            boolean usable = nodes.get(i).inService();
            if (usable && !wasUsable[i]) {
                // A ramp armed by begin() in the last tick keeps its start; one armed earlier, while another
                // gate (say a failing health check) still held the node out, starts again now.
                if (!ramping[i] || now - rampStart[i] > 2 * TICK_MILLIS * 1_000_000L) {
                    ramping[i] = true;
                    rampStart[i] = now;
                }
                log.info("cluster {}: node {} usable again; slow start over {} ms", cluster.name(),
                        nodes.get(i).name(), durationNanos / 1_000_000L);
            }
            wasUsable[i] = usable;
        }
        return publish(now);
    }

    private boolean publish(long now) {
        double[] factors = null;
        for (int i = 0; i < ramping.length; i++) {
            if (!ramping[i]) {
                continue;
            }
            double factor = factor(now - rampStart[i], durationNanos);
            if (factor >= 1) {
                ramping[i] = false;
                continue;
            }
            if (factors == null) {
                factors = new double[ramping.length];
                java.util.Arrays.fill(factors, 1.0);
            }
            factors[i] = factor;
        }
        cluster.setRamp(factors);
        return factors != null;
    }

    /** The share of its picks a node keeps {@code elapsedNanos} into a ramp of {@code durationNanos}. */
    static double factor(long elapsedNanos, long durationNanos) {
        if (elapsedNanos >= durationNanos) {
            return 1.0;
        }
        double progress = Math.max(0, elapsedNanos) / (double) durationNanos;
        return INITIAL_SHARE + (1 - INITIAL_SHARE) * progress;
    }

    /** The current factor of each node (1 when not ramping); for display and tests. */
    public synchronized double factor(NodeState node) {
        int i = node.index();
        return ramping[i] ? factor(nanoClock.getAsLong() - rampStart[i], durationNanos) : 1.0;
    }
}
