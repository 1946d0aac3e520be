package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.NodeView;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * rr-to-lc's estimate of the traffic intensity ρ over the last second, and the mode it implies, with
 * hysteresis. One instance lives across picker rebuilds, so a health change neither forgets the window
 * nor resets the mode.
 *
 * <p>The window has ten 100 ms buckets of [epoch, picks, nodes looked at, of which busy]. Each pick
 * counts itself and looks at one node, in rotation, noting whether it has work. The pick that opens a
 * new bucket re-evaluates the mode from the ten buckets before it:
 * <ul>
 *   <li>with {@code nodeCapacity} μ (requests/s of a node of weight 1): ρ = λ / (μ × Σ usable weights),
 *       λ the picks of the last second, seed 003's definition;</li>
 *   <li>without it: ρ = the fraction of looked-at nodes that had work. Picks are arrivals, and arrivals
 *       see time averages (PASTA), so for nodes that serve one request at a time (seed 000's CPU-bound
 *       servers, the simulator's nodes) this is their utilisation, λ/Σμ, whichever mode is running. A
 *       multi-threaded app server is "busy" long before it is saturated, so this overstates ρ there and
 *       switches to least connections early, the safe side; give nodeCapacity for such nodes.</li>
 * </ul>
 * Up to {@code switchUp} the mode stays or becomes round robin, from it least connections; it goes back
 * only below {@code switchDown}, and never within one window of the last switch, so that every decision
 * rests on a second measured entirely under the mode it judges.
 */
final class TrafficIntensity {

    static final long BUCKET_NANOS = 100_000_000L;
    static final int BUCKETS = 10;
    /** What {@link #evaluate} reads: the nine complete buckets before the one just opened. */
    static final double WINDOW_SECONDS = (BUCKETS - 1) * BUCKET_NANOS / 1e9;
    /** Without nodeCapacity: fewer looked-at nodes than this in the window decide nothing (noise). */
    static final int MIN_OBSERVATIONS = 20;

    private final AtomicLongArray cells = new AtomicLongArray(BUCKETS * 4);
    private final double nodeCapacity;
    private final double switchUp;
    private final double switchDown;
    private volatile boolean leastConnections;
    private volatile long lastSwitchEpoch = Long.MIN_VALUE / 2;
    private volatile double lastIntensity = Double.NaN;

    TrafficIntensity(double nodeCapacity, double switchUp, double switchDown) {
        this.nodeCapacity = nodeCapacity;
        this.switchUp = switchUp;
        this.switchDown = switchDown;
    }

    /** Whether this estimator was made with these settings (so a rebuild may keep it). */
    boolean sameSettings(double capacity, double up, double down) {
        return capacity == nodeCapacity && up == switchUp && down == switchDown;
    }

    /** Counts one pick at {@code nowNanos}; returns true when least connections should place it. */
    boolean onPick(ClusterSnapshot nodes, long nowNanos) {
        long epoch = Math.floorDiv(nowNanos, BUCKET_NANOS);
        int base = (int) Math.floorMod(epoch, BUCKETS) * 4;
        long seen = cells.get(base);
        if (seen != epoch && cells.compareAndSet(base, seen, epoch)) {
            cells.set(base + 1, 0);
            cells.set(base + 2, 0);
            cells.set(base + 3, 0);
            evaluate(nodes, epoch);
        }
        long picks = cells.incrementAndGet(base + 1);
        NodeView looked = nodes.node((int) (picks % nodes.size()));
        if (looked.usable()) {
            cells.incrementAndGet(base + 2);
            if (looked.activeConnections() > 0) {
                cells.incrementAndGet(base + 3);
            }
        }
        return leastConnections;
    }

    /**
     * Re-decides the mode from the nine buckets before {@code epoch} (the tenth slot has just been taken
     * for {@code epoch}): 0.9 s, over which a bucket nobody touched counts as 0 picks.
     */
    private void evaluate(ClusterSnapshot nodes, long epoch) {
        long picks = 0;
        long observed = 0;
        long busy = 0;
        for (int i = 0; i < BUCKETS; i++) {
            int base = i * 4;
            long e = cells.get(base);
            if (e < epoch && epoch - e < BUCKETS) {
                picks += cells.get(base + 1);
                observed += cells.get(base + 2);
                busy += cells.get(base + 3);
            }
        }
        double rho;
        if (nodeCapacity > 0) {
            long weights = 0;
            for (int i = 0; i < nodes.size(); i++) {
                weights += nodes.node(i).usable() ? Math.max(1, nodes.node(i).weight()) : 0;
            }
            rho = weights == 0 ? 0 : picks / WINDOW_SECONDS / (nodeCapacity * weights);
        } else if (observed >= MIN_OBSERVATIONS) {
            rho = (double) busy / observed;
        } else {
            return;
        }
        lastIntensity = rho;
        if (epoch - lastSwitchEpoch < BUCKETS) {
            return;
        }
        boolean lc = leastConnections;
        if (!lc && rho >= switchUp || lc && rho < switchDown) {
            leastConnections = !lc;
            lastSwitchEpoch = epoch;
        }
    }

    /** The intensity at the last evaluation, NaN before the first (for tests and status). */
    double lastIntensity() {
        return lastIntensity;
    }

    boolean leastConnections() {
        return leastConnections;
    }
}
