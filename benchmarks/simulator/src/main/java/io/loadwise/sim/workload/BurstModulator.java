package io.loadwise.sim.workload;

import java.util.SplittableRandom;

/**
 * Gives a trace a target burstiness ⟨a, b⟩ (seed 004 Table 1: SURGE ⟨1.53, 0.48⟩, World Cup ⟨1.58, 0.40⟩)
 * by warping time, without adding or removing requests. The span is cut into epochs; a random fraction
 * b of them become busy and receive a times the mean number of requests, the others (1 − a·b)/(1 − b)
 * times it. Requests keep their order, and within an epoch their original relative spacing.
 */
public final class BurstModulator {

    private BurstModulator() {
    }

    public static Trace modulate(Trace trace, double a, double b, int epochs, long seed) {
        if (!(a >= 1) || !(b > 0 && b < 1) || a * b >= 1) {
            throw new IllegalArgumentException("burstiness <a, b> needs a >= 1, 0 < b < 1 and a·b < 1, got <"
                    + a + ", " + b + ">");
        }
        int n = trace.size();
        if (epochs < 2 || n < 2 * epochs) {
            throw new IllegalArgumentException("burstiness needs at least 2 requests per epoch (" + epochs + " epochs, "
                    + n + " requests)");
        }
        SplittableRandom random = new SplittableRandom(seed);
        int busy = (int) Math.round(b * epochs);
        boolean[] isBusy = new boolean[epochs];
        for (int placed = 0; placed < busy; ) {
            int e = random.nextInt(epochs);
            if (!isBusy[e]) {
                isBusy[e] = true;
                placed++;
            }
        }
        double quiet = (1 - a * ((double) busy / epochs)) / (1 - (double) busy / epochs);
        double perEpoch = (double) n / epochs;
        long epochNanos = Math.max(1, trace.spanNanos() / epochs);
        TraceBuilder out = new TraceBuilder();
        int next = 0;
        double carried = 0;
        for (int e = 0; e < epochs && next < n; e++) {
            carried += perEpoch * (isBusy[e] ? a : quiet);
            int end = e == epochs - 1 ? n : (int) Math.min(n, Math.round(carried));
            if (end <= next) {
                continue;
            }
            long start = trace.arrivalNanos(next);
            long stop = end < n ? trace.arrivalNanos(end) : trace.arrivalNanos(n - 1) + 1;
            double span = Math.max(1, stop - start);
            for (int i = next; i < end; i++) {
                long t = e * epochNanos + Math.round((trace.arrivalNanos(i) - start) / span * epochNanos);
                out.add(t, trace.sizeBytes(i), trace.dynamic(i));
            }
            next = end;
        }
        return out.build(trace.description() + String.format(", modulated to <%.2f, %.2f>", a, b));
    }
}
