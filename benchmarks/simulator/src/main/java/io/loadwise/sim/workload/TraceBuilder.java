package io.loadwise.sim.workload;

import java.util.Arrays;

/** Growable column store that parsers and generators fill in arrival order, then freeze into a {@link Trace}. */
public final class TraceBuilder {

    private long[] arrivals = new long[1024];
    private long[] sizes = new long[1024];
    private boolean[] dynamic = new boolean[1024];
    private int size;

    public TraceBuilder add(long arrivalNanos, long sizeBytes, boolean isDynamic) {
        if (size == arrivals.length) {
            int grown = size * 2;
            arrivals = Arrays.copyOf(arrivals, grown);
            sizes = Arrays.copyOf(sizes, grown);
            dynamic = Arrays.copyOf(dynamic, grown);
        }
        arrivals[size] = arrivalNanos;
        sizes[size] = sizeBytes;
        dynamic[size] = isDynamic;
        size++;
        return this;
    }

    public int size() {
        return size;
    }

    /** Overwrites the arrival time of request {@code i} (used to spread same-second log records). */
    void setArrival(int i, long arrivalNanos) {
        arrivals[i] = arrivalNanos;
    }

    public Trace build(String description) {
        return new Trace(description, Arrays.copyOf(arrivals, size), Arrays.copyOf(sizes, size),
                Arrays.copyOf(dynamic, size));
    }
}
