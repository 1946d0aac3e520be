package io.loadwise.dispatcher.net;

import java.util.concurrent.TimeUnit;

/**
 * At most one log line per interval for a condition that can repeat thousands of times a second (a
 * listener out of file descriptors), with the number of occurrences the skipped lines would have
 * reported. Not thread-safe: one per listener, used on its event loop.
 */
final class LogThrottle {

    static final long INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

    private boolean logged;
    private long lastNanos;
    private long suppressed;

    /**
     * Whether to log this occurrence at {@code nowNanos}; when not, it is counted for the next line.
     * After {@code true}, {@link #takeSuppressed()} tells how many were skipped since the last line.
     */
    boolean shouldLog(long nowNanos) {
        if (logged && nowNanos - lastNanos < INTERVAL_NANOS) {
            suppressed++;
            return false;
        }
        logged = true;
        lastNanos = nowNanos;
        return true;
    }

    /** Occurrences not logged since the previous line; resets the count. */
    long takeSuppressed() {
        long n = suppressed;
        suppressed = 0;
        return n;
    }
}
