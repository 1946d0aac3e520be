package io.loadwise.dispatcher.outlier;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One node's run lengths for {@link OutlierDetector}: 5xx answers or gateway failures in a row, and
 * gateway failures in a row, packed into one {@code long} (high half: errors, low half: gateway) so that
 * one atomic add records an outcome and returns both. A success writes only when a run was going, so the
 * usual case is one volatile read and no write (no cache line bouncing between event loops).
 *
 * <p>Ejection bookkeeping (the claim, the multiplier) is touched only when a node is ejected or readmitted.
 */
final class OutlierCounters {

    private static final long ERROR = 1L << 32;
    private static final VarHandle RUNS;
    private static final VarHandle CLAIMED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            RUNS = lookup.findVarHandle(OutlierCounters.class, "runs", long.class);
            CLAIMED = lookup.findVarHandle(OutlierCounters.class, "claimed", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile long runs;
    private volatile int claimed;
    /** Ejections in a row, decremented by one per base period without ejection; owned by the ejecting thread. */
    private int multiplier;
    private long readmittedNanos;

    void success() {
        if (runs != 0) {
            runs = 0;
        }
    }

    /**
     * A 5xx answer ({@code gateway}: 502, 503 or 504) or a gateway failure ({@code gateway} true).
     *
     * @return both run lengths after it, packed; read them with {@link #errors} and {@link #gatewayFailures}
     */
    long serverError(boolean gateway) {
        if (gateway) {
            return (long) RUNS.getAndAdd(this, ERROR + 1) + ERROR + 1;
        }
        long now;
        long next;
        do { // a 5xx that is no gateway failure ends the gateway run
            now = runs;
            next = (now & ~0xFFFF_FFFFL) + ERROR;
        } while (!RUNS.compareAndSet(this, now, next));
        return next;
    }

    static int errors(long packed) {
        return (int) (packed >>> 32);
    }

    static int gatewayFailures(long packed) {
        return (int) packed;
    }

    void reset() {
        runs = 0;
    }

    /** Only one thread ejects a node; the others see the claim and leave it. */
    boolean claimEjection() {
        return CLAIMED.compareAndSet(this, 0, 1);
    }

    void releaseClaim() {
        claimed = 0;
    }

    /** The multiplier of the ejection starting at {@code nowNanos}: one more than the forgiven previous one. */
    int nextMultiplier(long nowNanos, long baseNanos) {
        if (multiplier > 0) {
            long forgiven = Math.max(0, (nowNanos - readmittedNanos) / baseNanos);
            multiplier = (int) Math.max(0, multiplier - forgiven);
        }
        if (multiplier < Integer.MAX_VALUE / 2) {
            multiplier++;
        }
        return multiplier;
    }

    /** Takes over {@code from}'s run lengths and multiplier (the same node in a rebuilt cluster); no claim. */
    void adopt(OutlierCounters from) {
        runs = from.runs;
        multiplier = from.multiplier;
        readmittedNanos = from.readmittedNanos;
    }

    void readmitted(long nowNanos) {
        readmittedNanos = nowNanos;
    }
}
