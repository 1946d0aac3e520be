package io.loadwise.agent.http;

import io.loadwise.agent.sample.Sampler;

/**
 * Decides, on a request thread, whether this response carries the load header, and returns the value
 * the sampler pre-encoded. The check is a volatile read and a comparison: no locks, no allocation, no
 * collection. Two responses racing past the interval may both carry the header, which is harmless.
 */
public final class HeaderGate {

    private final Sampler sampler;
    private final long intervalNanos;
    private volatile long nextAttachNanos;

    /** @param intervalMillis 0 = every response, -1 = never, else at most one response per interval */
    public HeaderGate(Sampler sampler, long intervalMillis) {
        this.sampler = sampler;
        this.intervalNanos = intervalMillis < 0 ? -1 : intervalMillis * 1_000_000L;
    }

    /**
     * The header value to attach to the current response, or {@code null} for none.
     *
     * @param nowNanos {@link System#nanoTime()}
     */
    public String valueToAttach(long nowNanos) {
        if (intervalNanos <= 0) {
            return intervalNanos == 0 ? sampler.latest().orcaHeader() : null;
        }
        if (nowNanos - nextAttachNanos < 0) {
            return null;
        }
        String value = sampler.latest().orcaHeader();
        if (value != null) {
            nextAttachNanos = nowNanos + intervalNanos;
        }
        return value;
    }

    /** Whether {@link #valueToAttach} needs the clock (callers may skip {@code nanoTime()} otherwise). */
    public boolean usesClock() {
        return intervalNanos > 0;
    }
}
