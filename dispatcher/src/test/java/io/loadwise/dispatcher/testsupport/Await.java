package io.loadwise.dispatcher.testsupport;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;

/** Poll-with-deadline for conditions another thread makes true (Awaitility, polled every 10 ms). */
public final class Await {

    private Await() {
    }

    public static void until(String what, BooleanSupplier condition) {
        until(what, Duration.ofSeconds(10), condition);
    }

    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        Awaitility.await(what).atMost(timeout).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10))
                .until(condition::getAsBoolean);
    }
}
