package io.loadwise.dispatcher.route;

import io.loadwise.dispatcher.config.RateLimitConfig;
import io.loadwise.dispatcher.config.RateLimitKey;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * One named per-client rate ({@code rateLimits.NAME}): a token bucket per key, {@code burst} deep, refilled at
 * {@code requestsPerSecond}. The key table is bounded: it is cut into stripes, each a least-recently-used map
 * of {@code maxKeys / stripes} entries, so a client that floods new keys only pushes out the longest idle ones,
 * and the event loops rarely meet on one lock. Keys are cut to {@value #MAX_KEY_CHARS} characters so memory
 * is bounded too.
 *
 * <p>With {@code N} replicas sharing configuration, each enforces {@code 1/N} of rate and burst
 * ({@link #shareAmong}): exact when a client's requests spread evenly over the replicas.
 */
public final class ClientRateLimit {

    static final int MAX_KEY_CHARS = 256;
    private static final int STRIPES = 16;
    /** A bucket entry's weight beside its key: map entry, bucket and string headers, measured roughly. */
    private static final int ENTRY_BYTES = 160;

    private final String name;
    private final RateLimitKey key;
    private final double ratePerNanoWhole;
    private final double burstWhole;
    private final Stripe[] stripes = new Stripe[STRIPES];
    private final LongAdder limited = new LongAdder();
    private volatile int replicas = 1;

    public ClientRateLimit(String name, RateLimitConfig config) {
        this.name = name;
        this.key = RateLimitKey.parse(config.key());
        this.ratePerNanoWhole = config.requestsPerSecond() / 1e9;
        this.burstWhole = config.burstOrDefault();
        int perStripe = Math.max(1, config.maxKeysOrDefault() / STRIPES);
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Stripe(perStripe);
        }
    }

    public String name() {
        return name;
    }

    public RateLimitKey key() {
        return key;
    }

    /** Enforce {@code 1/replicas} of the configured rate and burst from now on. */
    public void shareAmong(int replicas) {
        this.replicas = Math.max(1, replicas);
    }

    public int replicas() {
        return replicas;
    }

    /**
     * Takes a token for {@code clientKey}: 0 when the request may pass, else how many nanoseconds until it
     * would (for {@code Retry-After}).
     */
    public long acquire(String clientKey, long nowNanos) {
        String k = clientKey.length() > MAX_KEY_CHARS ? clientKey.substring(0, MAX_KEY_CHARS) : clientKey;
        int n = replicas;
        double rate = ratePerNanoWhole / n;
        double burst = Math.max(1.0, burstWhole / n);
        Stripe stripe = stripes[(k.hashCode() ^ (k.hashCode() >>> 16)) & (STRIPES - 1)];
        long wait;
        synchronized (stripe) {
            TokenBucket bucket = stripe.get(k);
            if (bucket == null) {
                bucket = new TokenBucket(burst, nowNanos);
                stripe.put(k, bucket);
                stripe.keyChars += k.length();
            }
            wait = bucket.take(rate, burst, nowNanos);
        }
        if (wait > 0) {
            limited.increment();
        }
        return wait;
    }

    /** Requests refused so far. */
    public long limited() {
        return limited.sum();
    }

    /** Keys held now. */
    public int keys() {
        int sum = 0;
        for (Stripe s : stripes) {
            synchronized (s) {
                sum += s.size();
            }
        }
        return sum;
    }

    /** The key table's approximate memory, in bytes. */
    public long tableBytes() {
        long sum = 0;
        for (Stripe s : stripes) {
            synchronized (s) {
                sum += (long) s.size() * ENTRY_BYTES + s.keyChars;
            }
        }
        return sum;
    }

    /** Most keys the table holds: the configured {@code maxKeys}, rounded down to whole stripes (at least 16). */
    public int capacity() {
        return stripes[0].capacity * STRIPES;
    }

    private static final class TokenBucket {

        private double tokens;
        private long refilledAt;

        TokenBucket(double tokens, long now) {
            this.tokens = tokens;
            this.refilledAt = now;
        }

        long take(double ratePerNano, double burst, long now) {
            long elapsed = Math.max(0, now - refilledAt);
            tokens = Math.min(burst, tokens + elapsed * ratePerNano);
            refilledAt = now;
            if (tokens >= 1.0) {
                tokens -= 1.0;
                return 0;
            }
            return Math.max(1, (long) Math.ceil((1.0 - tokens) / ratePerNano));
        }
    }

    /** A least-recently-used map of at most {@code capacity} buckets. */
    private static final class Stripe extends LinkedHashMap<String, TokenBucket> {

        private final int capacity;
        long keyChars;

        Stripe(int capacity) {
            super(16, 0.75f, true);
            this.capacity = capacity;
        }

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, TokenBucket> eldest) {
            if (size() > capacity) {
                keyChars -= eldest.getKey().length();
                return true;
            }
            return false;
        }
    }
}
