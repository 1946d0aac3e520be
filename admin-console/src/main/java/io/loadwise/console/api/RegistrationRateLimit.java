package io.loadwise.console.api;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Registration calls per source address: a token bucket of {@link #BURST} calls refilled at {@link #PER_SECOND}
 * a second, enough for many nodes behind one address heartbeating every few seconds, and little for a flood.
 * The table is bounded: at most {@link #MAX_SOURCES} addresses, least recently seen evicted first (an evicted
 * address starts again with a full bucket, which costs a flood nothing it did not have).
 */
final class RegistrationRateLimit {

    static final int BURST = 20;
    static final int PER_SECOND = 5;
    static final int MAX_SOURCES = 10_000;
    private static final int MAX_KEY_LENGTH = 64;

    private static final class Bucket {
        double tokens = BURST;
        long lastMillis;
    }

    private final Clock clock;
    private final Map<String, Bucket> buckets = new LinkedHashMap<>(256, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Bucket> eldest) {
            return size() > MAX_SOURCES;
        }
    };

    RegistrationRateLimit(Clock clock) {
        this.clock = clock;
    }

    /** Takes one call from {@code source}'s bucket; {@code false} when it is empty (answer 429). */
    synchronized boolean admit(String source) {
        String key = source == null ? "" : source.length() > MAX_KEY_LENGTH ? source.substring(0, MAX_KEY_LENGTH) : source;
        long now = clock.millis();
        Bucket bucket = buckets.get(key);
        if (bucket == null) {
            bucket = new Bucket();
            bucket.lastMillis = now;
            buckets.put(key, bucket);
        }
        long elapsed = Math.max(0, now - bucket.lastMillis);
        bucket.tokens = Math.min(BURST, bucket.tokens + elapsed * PER_SECOND / 1000.0);
        bucket.lastMillis = now;
        if (bucket.tokens < 1) {
            return false;
        }
        bucket.tokens -= 1;
        return true;
    }

    synchronized int sources() {
        return buckets.size();
    }
}
