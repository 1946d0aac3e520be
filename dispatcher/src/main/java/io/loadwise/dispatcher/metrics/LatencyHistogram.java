package io.loadwise.dispatcher.metrics;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * A latency histogram with fixed buckets, recorded on the event loops (a short scan and two uncontended
 * {@link LongAdder} increments) and read by the Prometheus scrape as cumulative counts.
 *
 * <p>The buckets are chosen for a proxy in front of Java application servers, 0.5 ms to 60 s: the proxy's own
 * share and a pooled connect are sub-millisecond (the first three buckets tell them apart), servlet answers
 * are 5 ms to a few seconds (dense there, 1-2.5-5 per decade as Prometheus' defaults), and the long tail up to
 * the default response timeout of 30 s and past it is kept (30, 60), where Prometheus' default buckets stop
 * at 10 s. 16 bounds: 19 series per histogram and node, a bounded exposition.
 *
 * <p>Each bucket keeps its last traced observation as an OpenMetrics exemplar ({@link #exemplar}): a span id a
 * dashboard can jump to from a slow bucket. Only traced (sampled) requests make one, so with tracing off nothing is
 * allocated, and a bucket holds one at most: bounded like the buckets.
 */
public final class LatencyHistogram {

    /** Upper bounds, seconds, as Prometheus' {@code le} labels. */
    public static final double[] BOUNDS_SECONDS = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
        1, 2.5, 5, 10, 30, 60};
    private static final long[] BOUNDS_NANOS = new long[BOUNDS_SECONDS.length];

    static {
        for (int i = 0; i < BOUNDS_SECONDS.length; i++) {
            BOUNDS_NANOS[i] = Math.round(BOUNDS_SECONDS[i] * 1e9);
        }
    }

    /** Per bucket, not cumulative; the last is {@code +Inf}. */
    private final LongAdder[] counts = new LongAdder[BOUNDS_NANOS.length + 1];
    private final LongAdder sumNanos = new LongAdder();
    /** Per bucket, the last traced observation; {@code null} until one. */
    private final AtomicReferenceArray<Exemplar> exemplars = new AtomicReferenceArray<>(BOUNDS_NANOS.length + 1);

    public LatencyHistogram() {
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new LongAdder();
        }
    }

    /** One observation; a negative one (a clock that stepped) counts as 0. */
    public void record(long nanos) {
        long value = Math.max(0, nanos);
        counts[bucket(value)].increment();
        sumNanos.add(value);
    }

    /**
     * The observation {@code nanos}, already {@link #record recorded}, belongs to the sampled trace {@code traceId},
     * span {@code spanId}: it becomes its bucket's exemplar, replacing the one before.
     */
    public void exemplar(long nanos, String traceId, String spanId, long epochMillis) {
        long value = Math.max(0, nanos);
        exemplars.set(bucket(value), new Exemplar(traceId, spanId, value / 1e9, epochMillis));
    }

    private static int bucket(long value) {
        int i = 0;
        while (i < BOUNDS_NANOS.length && value > BOUNDS_NANOS[i]) {
            i++;
        }
        return i;
    }

    /** The counts so far. */
    public Reading read() {
        long[] cumulative = new long[counts.length];
        long running = 0;
        for (int i = 0; i < counts.length; i++) {
            running += counts[i].sum();
            cumulative[i] = running;
        }
        Exemplar[] last = new Exemplar[counts.length];
        for (int i = 0; i < last.length; i++) {
            last[i] = exemplars.get(i);
        }
        return new Reading(cumulative, sumNanos.sum() / 1e9, last);
    }

    /**
     * A traced observation: the trace and span ids (lower-case hex, as W3C writes them), its value and when it ended.
     */
    public record Exemplar(String traceId, String spanId, double seconds, long epochMillis) {
    }

    /**
     * @param cumulative per bound of {@link #BOUNDS_SECONDS}, then {@code +Inf}: observations at or under it
     * @param sumSeconds every observation added up
     * @param exemplars per bucket (not cumulative), its last traced observation or {@code null}
     */
    public record Reading(long[] cumulative, double sumSeconds, Exemplar[] exemplars) {

        public static final Reading EMPTY = new LatencyHistogram().read();

        /** A reading without exemplars (figures summed over replicas). */
        public Reading(long[] cumulative, double sumSeconds) {
            this(cumulative, sumSeconds, new Exemplar[cumulative.length]);
        }

        /** Observations in all. */
        public long count() {
            return cumulative[cumulative.length - 1];
        }
    }
}
