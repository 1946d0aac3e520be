package io.loadwise.console.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RegistrationRateLimitTest {

    private final AtomicLong millis = new AtomicLong(1_000_000);
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis.get());
        }
    };
    private final RegistrationRateLimit limit = new RegistrationRateLimit(clock);

    @Test
    void aBurstThenFiveASecondPerAddress() {
        for (int i = 0; i < RegistrationRateLimit.BURST; i++) {
            assertTrue(limit.admit("10.0.0.1"), "call " + i);
        }
        assertFalse(limit.admit("10.0.0.1"));
        assertTrue(limit.admit("10.0.0.2"), "another address has its own bucket");
        millis.addAndGet(199);
        assertFalse(limit.admit("10.0.0.1"), "0.995 of a call refilled");
        millis.addAndGet(1);
        assertTrue(limit.admit("10.0.0.1"), "one call refilled after 200 ms");
        assertFalse(limit.admit("10.0.0.1"));
        millis.addAndGet(60_000);
        for (int i = 0; i < RegistrationRateLimit.BURST; i++) {
            assertTrue(limit.admit("10.0.0.1"), "refilled to the burst, not beyond: call " + i);
        }
        assertFalse(limit.admit("10.0.0.1"));
    }

    @Test
    void theTableIsBoundedAndKeysAreCut() {
        for (int i = 0; i < RegistrationRateLimit.MAX_SOURCES + 500; i++) {
            limit.admit("10." + (i >> 16) + "." + ((i >> 8) & 255) + "." + (i & 255));
        }
        assertEquals(RegistrationRateLimit.MAX_SOURCES, limit.sources());
        String long1 = "x".repeat(64) + "a";
        String long2 = "x".repeat(64) + "b";
        for (int i = 0; i < RegistrationRateLimit.BURST; i++) {
            limit.admit(long1);
        }
        assertFalse(limit.admit(long2), "an over-long key is cut to 64 characters: the same bucket");
    }
}
