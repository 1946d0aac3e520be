package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A named per-client request rate ({@code "rateLimits"}), a token bucket per key: {@code burst} requests at
 * once, refilled at {@code requestsPerSecond}. A request over it gets {@code 429} with {@code Retry-After} and
 * never reaches a node.
 *
 * @param key {@code clientIp} (after a listener's {@code trustedProxies}), {@code header:NAME} or
 *     {@code cookie:NAME}; a request without the header or cookie is keyed by its client address
 * @param requestsPerSecond the sustained rate per key
 * @param burst the bucket size; default {@code requestsPerSecond} rounded up
 * @param maxKeys the keys held at most; the longest idle go first; default 100,000
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RateLimitConfig(String key, Double requestsPerSecond, Integer burst, Integer maxKeys) {

    public static final int DEFAULT_MAX_KEYS = 100_000;
    public static final int MAX_MAX_KEYS = 10_000_000;

    public int burstOrDefault() {
        return burst != null ? burst : (int) Math.ceil(requestsPerSecond == null ? 1 : requestsPerSecond);
    }

    public int maxKeysOrDefault() {
        return maxKeys == null ? DEFAULT_MAX_KEYS : maxKeys;
    }
}
