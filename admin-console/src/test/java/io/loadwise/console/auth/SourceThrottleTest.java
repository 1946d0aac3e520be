package io.loadwise.console.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SourceThrottleTest {

    private static final String ATTACKER = "192.0.2.7";
    private static final String ADMIN = "192.0.2.8";

    private final MutableClock clock = new MutableClock();
    private final SourceThrottle throttle = new SourceThrottle(clock);

    /** One attempt that is checked and fails; asserts that it was admitted. */
    private int failOnce(String source) {
        assertEquals(Duration.ZERO, throttle.admit(source), "admitted");
        return throttle.failed(source);
    }

    @Test
    void threeFailuresAreFreeThenTheDelayDoublesUpToTheCap() {
        for (int i = 1; i <= 3; i++) {
            assertEquals(Duration.ZERO, throttle.admit(ATTACKER));
            assertEquals(i, throttle.failed(ATTACKER));
        }
        long[] expectedSeconds = {1, 2, 4, 8, 16, 32, 60, 60};
        for (long seconds : expectedSeconds) {
            assertEquals(Duration.ofSeconds(seconds), throttle.waitFor(ATTACKER));
            assertEquals(Duration.ofSeconds(seconds), throttle.admit(ATTACKER), "refused before the delay is over");
            clock.advance(Duration.ofSeconds(seconds).minusMillis(1));
            assertEquals(Duration.ofMillis(1), throttle.admit(ATTACKER));
            clock.advance(Duration.ofMillis(1));
            failOnce(ATTACKER);
        }
    }

    @Test
    void otherSourcesAreNeverHeldUp() {
        for (int i = 0; i < 10; i++) {
            clock.advance(throttle.waitFor(ATTACKER));
            failOnce(ATTACKER);
        }
        assertTrue(throttle.waitFor(ATTACKER).compareTo(Duration.ofSeconds(60)) == 0);
        assertEquals(Duration.ZERO, throttle.admit(ADMIN));
        assertEquals(SourceThrottle.FREE_FAILURES, throttle.freeAttemptsLeft(ADMIN));
    }

    @Test
    void aSuccessResetsTheSource() {
        for (int i = 0; i < 4; i++) {
            clock.advance(throttle.waitFor(ATTACKER));
            failOnce(ATTACKER);
        }
        clock.advance(throttle.waitFor(ATTACKER));
        assertEquals(Duration.ZERO, throttle.admit(ATTACKER));
        throttle.succeeded(ATTACKER);
        assertEquals(Duration.ZERO, throttle.waitFor(ATTACKER));
        assertEquals(3, throttle.freeAttemptsLeft(ATTACKER));
        assertEquals(1, throttle.failed(ATTACKER), "counting starts again");
    }

    @Test
    void onceThrottledConcurrentAttemptsGetOneCheckPerDelay() {
        for (int i = 0; i < 3; i++) {
            failOnce(ATTACKER);
        }
        clock.advance(Duration.ofSeconds(1));
        assertEquals(Duration.ZERO, throttle.admit(ATTACKER), "the first attempt after the delay is checked");
        // A second request arriving while the first is still being checked waits for the next slot.
        assertEquals(Duration.ofSeconds(2), throttle.admit(ATTACKER));
        assertEquals(4, throttle.failed(ATTACKER));
        assertEquals(Duration.ofSeconds(2), throttle.waitFor(ATTACKER));
    }

    @Test
    void aSourceIsForgottenAfterAQuietSpell() {
        for (int i = 0; i < 5; i++) {
            clock.advance(throttle.waitFor(ATTACKER));
            failOnce(ATTACKER);
        }
        clock.advance(SourceThrottle.FORGET_AFTER);
        assertEquals(Duration.ZERO, throttle.admit(ATTACKER));
        assertEquals(3, throttle.freeAttemptsLeft(ATTACKER));
        assertEquals(0, throttle.size());
    }

    @Test
    void theTableIsBoundedWhateverTheNumberOfAddresses() {
        for (int i = 0; i < 25_000; i++) {
            throttle.failed("10." + (i >> 16 & 255) + "." + (i >> 8 & 255) + "." + (i & 255));
        }
        assertEquals(SourceThrottle.MAX_SOURCES, throttle.size());
        // The least recently seen went first; the newest are still counted.
        assertEquals(2, throttle.freeAttemptsLeft("10.0.97.167"));
        assertEquals(3, throttle.freeAttemptsLeft("10.0.0.0"));
    }

    @Test
    void forgottenSourcesMakeRoomBeforeTheBoundIsReached() {
        SourceThrottle small = new SourceThrottle(clock, 100);
        for (int i = 0; i < 50; i++) {
            small.failed("10.0.0." + i);
        }
        clock.advance(SourceThrottle.FORGET_AFTER);
        small.failed("10.0.1.1");
        assertEquals(1, small.size());
    }

    @Test
    void ipv6SourcesCountPerSlash64() {
        assertEquals(SourceThrottle.key("2001:db8:1:2::1"), SourceThrottle.key("2001:db8:1:2:ffff:ffff:ffff:fffe"));
        assertNotEquals(SourceThrottle.key("2001:db8:1:2::1"), SourceThrottle.key("2001:db8:1:3::1"));
        assertEquals("2001:db8:1:2::/64", SourceThrottle.key("2001:db8:1:2::1"));
        assertEquals("127.0.0.1", SourceThrottle.key("127.0.0.1"));
        assertEquals("unknown", SourceThrottle.key(null));
        assertFalse(SourceThrottle.key("not:an:address:::::::::").isEmpty());
        assertEquals(64, SourceThrottle.key("x".repeat(500)).length(), "keys are bounded");
        for (int i = 0; i < 3; i++) {
            throttle.failed("2001:db8::" + Integer.toHexString(i + 1));
        }
        assertEquals(Duration.ofSeconds(1), throttle.admit("2001:db8::abcd"), "one /64 is one source");
    }
}
