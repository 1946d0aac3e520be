package io.loadwise.agent.http;

import io.loadwise.agent.sample.MetricsSnapshot;
import io.loadwise.agent.sample.Sampler;
import java.util.function.LongSupplier;

/**
 * Decides, on a request thread, whether this response carries the load header, and returns the value
 * the sampler pre-encoded. No locks, no allocation, no collection.
 *
 * <p>With an interval, a snapshot is sent at most once, and at most one response per interval carries
 * the header. Most requests find the snapshot they would send already sent and return after two
 * volatile reads, without even reading the clock: measured on a VM, {@code System.nanoTime()} alone
 * cost more than the rest of the filter. Two responses racing past the check may both carry the
 * header, which is harmless.
 */
public final class HeaderGate {

    private final Sampler sampler;
    private final long intervalNanos;
    private final LongSupplier nanoClock;
    private volatile MetricsSnapshot lastSent;
    private volatile long nextAttachNanos;

    /** @param intervalMillis 0 = every response, -1 = never, else at most one response per interval */
    public HeaderGate(Sampler sampler, long intervalMillis) {
        this(sampler, intervalMillis, System::nanoTime);
    }

    HeaderGate(Sampler sampler, long intervalMillis, LongSupplier nanoClock) {
        this.sampler = sampler;
        this.intervalNanos = intervalMillis < 0 ? -1 : intervalMillis * 1_000_000L;
        this.nanoClock = nanoClock;
    }

    /** The header value to attach to the current response, or {@code null} for none. */
    public String valueToAttach() {
        if (intervalNanos <= 0) {
            return intervalNanos == 0 ? sampler.latest().orcaHeader() : null;
        }
        MetricsSnapshot snapshot = sampler.latest();
        if (snapshot == lastSent || snapshot.orcaHeader() == null) {
            return null;
        }
        long now = nanoClock.getAsLong();
        if (lastSent != null && now - nextAttachNanos < 0) {
            return null;
        }
        lastSent = snapshot;
        nextAttachNanos = now + intervalNanos;
        return snapshot.orcaHeader();
    }
}
