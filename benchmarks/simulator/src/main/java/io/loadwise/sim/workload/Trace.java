package io.loadwise.sim.workload;

import java.util.Arrays;

/**
 * An immutable request sequence, sorted by arrival time: what every workload (generator or log parser)
 * produces and what the simulator replays. Column arrays rather than objects keep a million-request
 * trace at about 20 MB.
 */
public final class Trace {

    private final String description;
    private final long[] arrivalNanos;
    private final long[] sizeBytes;
    private final boolean[] dynamic;

    /** Arrays are taken over, not copied; arrival times must be non-decreasing. */
    Trace(String description, long[] arrivalNanos, long[] sizeBytes, boolean[] dynamic) {
        if (arrivalNanos.length == 0) {
            throw new IllegalArgumentException(description + ": the workload has no requests");
        }
        if (arrivalNanos.length != sizeBytes.length || arrivalNanos.length != dynamic.length) {
            throw new IllegalArgumentException("column lengths differ");
        }
        for (int i = 1; i < arrivalNanos.length; i++) {
            if (arrivalNanos[i] < arrivalNanos[i - 1]) {
                throw new IllegalArgumentException(description + ": arrivals out of order at request " + i);
            }
        }
        this.description = description;
        this.arrivalNanos = arrivalNanos;
        this.sizeBytes = sizeBytes;
        this.dynamic = dynamic;
    }

    public String description() {
        return description;
    }

    public int size() {
        return arrivalNanos.length;
    }

    public long arrivalNanos(int i) {
        return arrivalNanos[i];
    }

    /** Response size in bytes (L in seed 004's {@code L/K + C}). */
    public long sizeBytes(int i) {
        return sizeBytes[i];
    }

    /** Dynamic (CGI, query string) rather than static content. */
    public boolean dynamic(int i) {
        return dynamic[i];
    }

    /** Time from the first to the last arrival. */
    public long spanNanos() {
        return arrivalNanos[arrivalNanos.length - 1] - arrivalNanos[0];
    }

    /** Mean arrival rate in requests per second, (n - 1) / span. */
    public double meanRatePerSecond() {
        long span = spanNanos();
        if (span == 0) {
            throw new IllegalStateException(description + ": all requests arrive at the same instant, rate undefined");
        }
        return (size() - 1) / (span / 1e9);
    }

    public double meanSizeBytes() {
        double sum = 0;
        for (long s : sizeBytes) {
            sum += s;
        }
        return sum / sizeBytes.length;
    }

    public double dynamicFraction() {
        int n = 0;
        for (boolean d : dynamic) {
            if (d) {
                n++;
            }
        }
        return (double) n / dynamic.length;
    }

    /**
     * Seed 004's burstiness factor ⟨a, b⟩ (after Menascé and Almeida): the span is cut into
     * {@code epochs} equal epochs; b is the fraction of epochs whose arrival rate exceeds the mean rate,
     * a the mean rate of those epochs over the mean rate. Non-bursty traces have a ≈ 1, b ≈ 0.5.
     *
     * @return {a, b}
     */
    public double[] burstiness(int epochs) {
        long span = spanNanos();
        if (epochs < 2 || span == 0) {
            throw new IllegalArgumentException("burstiness needs >= 2 epochs and a non-zero span");
        }
        long[] counts = new long[epochs];
        for (long t : arrivalNanos) {
            int e = (int) Math.min(epochs - 1, (double) (t - arrivalNanos[0]) / span * epochs);
            counts[e]++;
        }
        double mean = (double) arrivalNanos.length / epochs;
        long above = 0;
        double aboveSum = 0;
        for (long c : counts) {
            if (c > mean) {
                above++;
                aboveSum += c;
            }
        }
        return new double[] {above == 0 ? 1 : aboveSum / above / mean, (double) above / epochs};
    }

    /**
     * Seed 004's time scaling: every inter-arrival time is multiplied by {@code factor}, so the rate is
     * divided by it. Arrivals are re-based to start at 0.
     */
    public Trace timeScaled(double factor) {
        if (!(factor > 0) || Double.isInfinite(factor)) {
            throw new IllegalArgumentException("time-scale factor must be a positive number, got " + factor);
        }
        long[] scaled = new long[arrivalNanos.length];
        long first = arrivalNanos[0];
        for (int i = 0; i < scaled.length; i++) {
            scaled[i] = Math.round((arrivalNanos[i] - first) * factor);
        }
        return new Trace(description + String.format(" ×%.4g", factor), scaled, sizeBytes, dynamic);
    }

    /** Scales time so that the mean arrival rate becomes {@code ratePerSecond}. */
    public Trace scaledToRate(double ratePerSecond) {
        if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond)) {
            throw new IllegalArgumentException("arrival rate must be a positive number, got " + ratePerSecond);
        }
        return timeScaled(meanRatePerSecond() / ratePerSecond);
    }

    /** The first {@code n} requests (all if there are fewer). */
    public Trace head(int n) {
        int len = Math.min(n, size());
        return new Trace(description, Arrays.copyOf(arrivalNanos, len), Arrays.copyOf(sizeBytes, len),
                Arrays.copyOf(dynamic, len));
    }
}
