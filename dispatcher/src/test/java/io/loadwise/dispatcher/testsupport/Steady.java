package io.loadwise.dispatcher.testsupport;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * The counterpart of {@link Await}: checks that a condition stays true for a whole period, sampling it
 * every 10 ms, for "nothing happens" assertions (a limit is never exceeded).
 */
public final class Steady {

    private Steady() {
    }

    public static void holds(String what, Duration period, BooleanSupplier condition) {
        long end = System.nanoTime() + period.toNanos();
        do {
            if (!condition.getAsBoolean()) {
                fail("no longer true: " + what);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted while checking: " + what);
            }
        } while (System.nanoTime() - end < 0);
    }
}
