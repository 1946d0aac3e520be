package io.loadwise.dispatcher.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.RateLimitConfig;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ClientRateLimitTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void aBurstPassesThenTheRateHolds() {
        ClientRateLimit limit = new ClientRateLimit("pc", new RateLimitConfig("clientIp", 10.0, 5, null));
        long now = 1_000 * SECOND;
        for (int i = 0; i < 5; i++) {
            assertEquals(0, limit.acquire("10.0.0.1", now), "request " + i + " of the burst");
        }
        long wait = limit.acquire("10.0.0.1", now);
        assertEquals(SECOND / 10, wait, SECOND / 1000.0);
        assertEquals(0, limit.acquire("10.0.0.2", now), "another client has its own bucket");
        assertEquals(0, limit.acquire("10.0.0.1", now + SECOND / 10), "a token after 100 ms");
        assertTrue(limit.acquire("10.0.0.1", now + SECOND / 10) > 0);
        assertEquals(2, limit.limited());
    }

    @Test
    void theBucketNeverHoldsMoreThanTheBurst() {
        ClientRateLimit limit = new ClientRateLimit("pc", new RateLimitConfig("clientIp", 100.0, 3, null));
        long now = 5 * SECOND;
        limit.acquire("k", now);
        now += 3_600 * SECOND;
        int passed = 0;
        while (limit.acquire("k", now) == 0) {
            passed++;
        }
        assertEquals(3, passed);
    }

    @Test
    void aFloodOfKeysCannotGrowTheTablePastMaxKeys() {
        ClientRateLimit limit = new ClientRateLimit("pc", new RateLimitConfig("header:x-key", 1.0, 1, 1_600));
        long now = SECOND;
        limit.acquire("victim", now);
        for (int i = 0; i < 1_000_000; i++) {
            limit.acquire("flood-" + i + "-" + "x".repeat(i % 300), now);
        }
        assertEquals(1_600, limit.capacity());
        assertTrue(limit.keys() <= 1_600, "keys " + limit.keys());
        assertTrue(limit.tableBytes() <= 1_600L * (160 + ClientRateLimit.MAX_KEY_CHARS), "bytes " + limit.tableBytes());
        // the victim was the longest idle: its bucket is gone, and it starts full again
        assertEquals(0, limit.acquire("victim", now));
    }

    @Test
    void replicasShareTheLimit() {
        ClientRateLimit limit = new ClientRateLimit("pc", new RateLimitConfig("clientIp", 30.0, 30, null));
        limit.shareAmong(3);
        long now = SECOND;
        int passed = 0;
        while (limit.acquire("c", now) == 0) {
            passed++;
        }
        assertEquals(10, passed, "a third of the burst on each of 3 replicas");
        assertEquals(SECOND / 10, limit.acquire("c", now), SECOND / 1000.0);
    }
}
