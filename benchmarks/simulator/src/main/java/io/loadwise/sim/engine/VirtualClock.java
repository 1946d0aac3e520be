package io.loadwise.sim.engine;

/** Simulated time in nanoseconds since the start of the run; handed to policies as their nano clock. */
public final class VirtualClock {

    private long now;

    public long nanoTime() {
        return now;
    }

    void advanceTo(long nanos) {
        if (nanos < now) {
            throw new IllegalStateException("time cannot go back: " + nanos + " < " + now);
        }
        now = nanos;
    }
}
