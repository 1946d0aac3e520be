package io.loadwise.dispatcher.net;

import java.util.concurrent.atomic.LongAdder;

/** Counts of PROXY header outcomes on a listener, read by metrics and the REST API. */
public final class ProxyProtocolStats {

    /** Why a connection was closed by {@link ProxyHeaderHandler}. */
    public enum Refusal {
        /** A PROXY header from a source that is not trusted (a spoofing attempt). */
        UNTRUSTED,
        /** A trusted source sent something that is not a valid header of an accepted version. */
        INVALID,
        /** A trusted source sent no complete header in time. */
        TIMEOUT
    }

    private final LongAdder accepted = new LongAdder();
    private final LongAdder[] refused = new LongAdder[Refusal.values().length];

    public ProxyProtocolStats() {
        for (int i = 0; i < refused.length; i++) {
            refused[i] = new LongAdder();
        }
    }

    void accepted() {
        accepted.increment();
    }

    void refused(Refusal why) {
        refused[why.ordinal()].increment();
    }

    /** Headers read and applied. */
    public long acceptedCount() {
        return accepted.sum();
    }

    /** Connections closed for {@code why}. */
    public long refusedCount(Refusal why) {
        return refused[why.ordinal()].sum();
    }
}
