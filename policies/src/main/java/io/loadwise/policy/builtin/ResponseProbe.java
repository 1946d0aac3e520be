package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.NodeView;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The probing half of probed-response-time: every probe interval, one pick (the one that wins a CAS on
 * the next probe time) samples each node's response time, folds it into a moving average and turns the
 * averages into cumulative weights. Nothing is allocated after construction: the weights are written into
 * whichever of two buffers is not being read, and the buffer index is then published.
 *
 * <p>A reader that took the other buffer keeps a consistent view unless it is still reading a whole
 * probe interval later, when that buffer is rewritten; it would then still get a valid node, only a
 * differently weighted one.
 */
final class ResponseProbe {

    /** Weight of a new probe in the moving average: the last probe and the history count equally. */
    static final double NEW_PROBE_WEIGHT = 0.5;
    /** Response time of a node that has requests in flight and finished none within the last second. */
    static final double STALLED_MILLIS = 1_000;
    /** Averages below this count as this: sub-millisecond differences are noise, not capacity. */
    static final double MIN_MILLIS = 1;
    /** Highest to lowest weight: a node keeps at least 1 % of the fastest one's share, so it is still measured. */
    static final double MAX_RATIO = 100;

    private final ClusterSnapshot nodes;
    private final long intervalNanos;
    private final double[] averageMillis;
    private final double[][] cumulative;
    private volatile int current;
    private final AtomicLong nextProbeNanos;

    /** A probe over {@code nodes}, continuing the averages of {@code previous} (same node names) if given. */
    ResponseProbe(ClusterSnapshot nodes, long intervalNanos, ResponseProbe previous, long nowNanos) {
        this.nodes = nodes;
        this.intervalNanos = intervalNanos;
        this.averageMillis = new double[nodes.size()];
        this.cumulative = new double[][] {new double[nodes.size()], new double[nodes.size()]};
        for (int i = 0; i < averageMillis.length; i++) {
            averageMillis[i] = previous == null ? Double.NaN : previous.averageOf(nodes.node(i).name());
        }
        // A rebuild (health, weights) keeps the probe schedule and does not probe out of turn.
        this.nextProbeNanos = new AtomicLong(previous == null ? nowNanos + intervalNanos : previous.nextProbeNanos.get());
        probe(previous == null);
    }

    /** Probes when the interval has passed and no other pick is probing; then returns the weights to use. */
    double[] weights(long nowNanos) {
        long due = nextProbeNanos.get();
        if (nowNanos - due >= 0 && nextProbeNanos.compareAndSet(due, nowNanos + intervalNanos)) {
            probe(true);
        }
        return cumulative[current];
    }

    /** Recomputes the weights, after sampling every node when {@code sample}. */
    private void probe(boolean sample) {
        int n = averageMillis.length;
        double measuredSum = 0;
        int measured = 0;
        for (int i = 0; i < n; i++) {
            NodeView node = nodes.node(i);
            double probed = sample ? node.recentResponseTimeMillis() : Double.NaN;
            if (sample && Double.isNaN(probed) && node.inFlightRequests() > 0) {
                probed = STALLED_MILLIS;
            }
            if (!Double.isNaN(probed)) { // no news from an idle node: it keeps its average
                double old = averageMillis[i];
                averageMillis[i] = Double.isNaN(old) ? probed : old + NEW_PROBE_WEIGHT * (probed - old);
            }
            if (!Double.isNaN(averageMillis[i])) {
                measuredSum += 1 / Math.max(MIN_MILLIS, averageMillis[i]);
                measured++;
            }
        }
        double unmeasured = measured == 0 ? 1 : measuredSum / measured; // an unmeasured node counts as average
        double max = 0;
        double[] next = cumulative[1 - current];
        for (int i = 0; i < n; i++) {
            next[i] = Double.isNaN(averageMillis[i]) ? unmeasured : 1 / Math.max(MIN_MILLIS, averageMillis[i]);
            max = Math.max(max, next[i]);
        }
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += Math.max(next[i], max / MAX_RATIO);
            next[i] = sum;
        }
        current = 1 - current;
    }

    private double averageOf(String name) {
        for (int i = 0; i < averageMillis.length; i++) {
            if (nodes.node(i).name().equals(name)) {
                return averageMillis[i];
            }
        }
        return Double.NaN;
    }

    /** The moving average of node {@code i} in ms, NaN before it was measured (for tests and docs). */
    double averageMillis(int i) {
        return averageMillis[i];
    }
}
