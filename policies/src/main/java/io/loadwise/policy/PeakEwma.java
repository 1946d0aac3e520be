package io.loadwise.policy;

/**
 * A peak-sensitive, decaying moving average of one node's response times: Finagle's {@code PeakEwma}
 * (also Linkerd's and Tower's), written so that reading it writes nothing.
 *
 * <ul>
 *   <li>A response slower than the stored average replaces it at once: a node that turns slow is seen
 *       as slow by the next pick (the "peak").</li>
 *   <li>A faster response is averaged in with weight {@code 1 - exp(-Δt/τ)}, Δt the time since the
 *       previous response, so the average recovers over about τ of responses, whatever their rate
 *       (an exponentially weighted average over unevenly spaced observations).</li>
 *   <li>A reader sees the average decayed by {@code exp(-(now - last response)/τ)}: a node that answers
 *       nothing (it was penalised and then shunned) drifts back towards 0 and is tried again, instead of
 *       keeping its worst time forever. Finagle does this decay on every read; here it is computed at
 *       read time, so picks never write to shared state.</li>
 * </ul>
 *
 * <p>τ = 10 s, Finagle's and Linkerd's default {@code decayTime}: long enough that one fast response does
 * not clear a node that is slow, short enough that a node recovers within tens of seconds.
 *
 * <p>Written by event loops as responses end, read by pickers. The two fields are written without a
 * lock: two responses ending at once can lose one observation, and a reader can pair a new average with
 * the previous timestamp (decaying it slightly too much for one read); both are harmless for an average.
 */
public final class PeakEwma {

    /** τ, the decay time constant, in nanoseconds. */
    public static final double DECAY_NANOS = 10e9;

    /** The average in nanoseconds as of {@link #stampNanos}; 0 before the first response. */
    private volatile double averageNanos;
    private volatile long stampNanos;

    /** Records a response that ended at {@code nowNanos} after running {@code rttNanos}. */
    public void observe(long nowNanos, long rttNanos) {
        double average = averageNanos;
        double rtt = rttNanos;
        if (rtt >= average) {
            averageNanos = rtt;
        } else {
            double keep = Math.exp(-Math.max(0, nowNanos - stampNanos) / DECAY_NANOS);
            averageNanos = average * keep + rtt * (1 - keep);
        }
        stampNanos = nowNanos;
    }

    /** The average decayed to {@code nowNanos}, in nanoseconds; 0 before the first response. */
    public double valueNanos(long nowNanos) {
        double average = averageNanos;
        if (average == 0) {
            return 0;
        }
        return average * decay(Math.max(0, nowNanos - stampNanos) / DECAY_NANOS);
    }

    /**
     * {@code exp(-x)} for {@code x >= 0}. A node that answers often is read within a small fraction of τ
     * of its last response; there the second-order Taylor polynomial is exact to 2e-7 and spares the pick
     * a call to {@link Math#exp}.
     */
    static double decay(double x) {
        return x < 0.01 ? 1 - x + x * x / 2 : Math.exp(-x);
    }
}
