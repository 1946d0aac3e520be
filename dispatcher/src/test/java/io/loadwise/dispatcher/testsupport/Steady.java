package io.loadwise.dispatcher.testsupport;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;

/**
 * The counterpart of {@link Await}: checks that a condition stays true for a whole period, sampling it
 * every 10 ms, for "nothing happens" assertions (a limit is never exceeded). Awaitility's {@code during}:
 * the condition must hold at every sample of the period.
 */
public final class Steady {

    private Steady() {
    }

    public static void holds(String what, Duration period, BooleanSupplier condition) {
        Awaitility.await("stays true: " + what).during(period).atMost(period.plusSeconds(5))
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10)).until(condition::getAsBoolean);
    }
}
