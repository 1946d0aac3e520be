package io.loadwise.console.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;

/**
 * Polling with a deadline for conditions that depend on the once-a-second metric writers, which need a
 * few ticks (and, the first time, the creation of tens of megabytes of stores) on a shared machine.
 */
public final class Await {

    private static final Duration DEADLINE = Duration.ofSeconds(45);

    private Await() {
    }

    public static void until(BooleanSupplier condition, String what) {
        Awaitility.await(what).atMost(DEADLINE).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200))
                .until(condition::getAsBoolean);
    }
}
