package io.loadwise.console.testing;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Polling with a deadline for conditions that depend on the once-a-second metric writers, which need a
 * few ticks (and, the first time, the creation of tens of megabytes of stores) on a shared machine.
 */
public final class Await {

    private static final long DEADLINE_NANOS = 45_000_000_000L;

    private Await() {
    }

    public static void until(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after 45 s waiting for " + what);
            }
            LockSupport.parkNanos(200_000_000L);
        }
    }
}
