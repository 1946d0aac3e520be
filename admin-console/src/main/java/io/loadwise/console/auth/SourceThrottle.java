package io.loadwise.console.auth;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Failed attempts to present a secret (the console password, the API's bearer token), counted per source
 * address. The first {@value #FREE_FAILURES} failures from a source cost nothing; after that each attempt
 * from it must wait a delay that doubles per failure, from {@link #FIRST_DELAY} up to {@link #MAX_DELAY}.
 * A success resets the source. Other sources are never affected: there is no global lock an attacker could
 * trip to lock the admin out.
 *
 * <p>Once a source is throttled, admitting an attempt books the next slot at once (as if the attempt will
 * fail), so concurrent requests from one source get one check per delay, not one each.
 *
 * <p>The table is bounded: at most {@link #MAX_SOURCES} sources, least recently seen evicted first, and a
 * source is forgotten {@link #FORGET_AFTER} after its last failure. An attacker cycling through addresses
 * therefore cannot grow memory; IPv6 sources count per /64 prefix, since one host usually owns a whole
 * /64 and could otherwise cycle through it.
 */
public final class SourceThrottle {

    public static final int FREE_FAILURES = 3;
    public static final Duration FIRST_DELAY = Duration.ofSeconds(1);
    public static final Duration MAX_DELAY = Duration.ofSeconds(60);
    public static final Duration FORGET_AFTER = Duration.ofMinutes(15);
    public static final int MAX_SOURCES = 10_000;

    /** Longer strings are not addresses; cut so that a key's size is bounded whatever the container passes. */
    private static final int MAX_KEY_LENGTH = 64;

    private static final class Source {
        int failures;
        Instant notBefore = Instant.MIN;
        Instant lastFailure;
    }

    private final Clock clock;
    private final int maxSources;
    /** In access order: the eldest entry is the source seen least recently. */
    private final LinkedHashMap<String, Source> sources;

    public SourceThrottle(Clock clock) {
        this(clock, MAX_SOURCES);
    }

    SourceThrottle(Clock clock, int maxSources) {
        this.clock = clock;
        this.maxSources = maxSources;
        this.sources = new LinkedHashMap<>(256, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Source> eldest) {
                return size() > SourceThrottle.this.maxSources;
            }
        };
    }

    /**
     * Asks whether an attempt from {@code address} may be checked now.
     *
     * @return zero when it may; otherwise how long the source must still wait (the attempt must then be
     *     refused without checking the secret)
     */
    public synchronized Duration admit(String address) {
        Instant now = clock.instant();
        Source source = live(key(address), now);
        if (source == null || source.failures < FREE_FAILURES) {
            return Duration.ZERO;
        }
        if (now.isBefore(source.notBefore)) {
            return Duration.between(now, source.notBefore);
        }
        source.notBefore = now.plus(delayAfter(source.failures + 1));
        return Duration.ZERO;
    }

    /**
     * Records a failed attempt from {@code address}.
     *
     * @return the source's failures in a row, this one included
     */
    public synchronized int failed(String address) {
        Instant now = clock.instant();
        String key = key(address);
        Source source = live(key, now);
        if (source == null) {
            forgetExpired(now);
            source = new Source();
            sources.put(key, source);
        }
        source.failures++;
        source.lastFailure = now;
        if (source.failures >= FREE_FAILURES) {
            Instant next = now.plus(delayAfter(source.failures));
            if (next.isAfter(source.notBefore)) {
                source.notBefore = next;
            }
        }
        return source.failures;
    }

    /** A right secret from {@code address}: it starts again with a clean record. */
    public synchronized void succeeded(String address) {
        sources.remove(key(address));
    }

    /** How long {@code address} must wait before its next attempt is checked; zero when it need not. */
    public synchronized Duration waitFor(String address) {
        Instant now = clock.instant();
        Source source = live(key(address), now);
        if (source == null || !now.isBefore(source.notBefore)) {
            return Duration.ZERO;
        }
        return Duration.between(now, source.notBefore);
    }

    /** Failures from {@code address} before its attempts are delayed; 0 once they are. */
    public synchronized int freeAttemptsLeft(String address) {
        Source source = live(key(address), clock.instant());
        return source == null ? FREE_FAILURES : Math.max(0, FREE_FAILURES - source.failures);
    }

    /** How many sources the table holds now. */
    public synchronized int size() {
        return sources.size();
    }

    /** The wait imposed after {@code failures} failures in a row: 0 below the free count, then 1 s, 2 s, 4 s … */
    static Duration delayAfter(int failures) {
        if (failures < FREE_FAILURES) {
            return Duration.ZERO;
        }
        // 2^30 s is far past any cap, and shifting further would overflow.
        int doublings = Math.min(failures - FREE_FAILURES, 30);
        Duration delay = FIRST_DELAY.multipliedBy(1L << doublings);
        return delay.compareTo(MAX_DELAY) > 0 ? MAX_DELAY : delay;
    }

    /** The entry for {@code key}, dropped (and {@code null} returned) when it has been forgotten. */
    private Source live(String key, Instant now) {
        Source source = sources.get(key);
        if (source != null && expired(source, now)) {
            sources.remove(key);
            return null;
        }
        return source;
    }

    private static boolean expired(Source source, Instant now) {
        return !now.isBefore(source.lastFailure.plus(FORGET_AFTER)) && !now.isBefore(source.notBefore);
    }

    /**
     * Drops forgotten sources from the least recently seen end; stops at the first live one, so the cost per
     * call stays small (access order is close to failure order, and the size bound holds regardless).
     */
    private void forgetExpired(Instant now) {
        Iterator<Source> eldestFirst = sources.values().iterator();
        while (eldestFirst.hasNext()) {
            if (!expired(eldestFirst.next(), now)) {
                return;
            }
            eldestFirst.remove();
        }
    }

    /** The table key of a source: the address itself, or its /64 prefix for IPv6. */
    static String key(String address) {
        if (address == null || address.isEmpty()) {
            return "unknown";
        }
        if (address.indexOf(':') < 0 || address.length() > MAX_KEY_LENGTH) {
            return address.length() > MAX_KEY_LENGTH ? address.substring(0, MAX_KEY_LENGTH) : address;
        }
        try {
            // An IPv6 literal: parsed, never looked up (InetAddress resolves only host names).
            byte[] bytes = InetAddress.getByName(address.startsWith("[") ? address.substring(1, address.length() - 1)
                    : address).getAddress();
            if (bytes.length != 16) {
                return address;
            }
            StringBuilder prefix = new StringBuilder();
            for (int i = 0; i < 8; i += 2) {
                prefix.append(Integer.toHexString(((bytes[i] & 0xff) << 8) | (bytes[i + 1] & 0xff))).append(':');
            }
            return prefix.append(":/64").toString();
        } catch (UnknownHostException | StringIndexOutOfBoundsException e) {
            return address;
        }
    }
}
