package io.loadwise.console.auth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;

/**
 * WARN lines for failed authentication, with the source address, rate-limited so that an attacker cannot
 * flood the log: at most one line per source per {@link #PERIOD} and {@value #MAX_LINES_PER_PERIOD} lines
 * per period in all. What is left out is counted and told in one summary line per period, written by
 * {@link #summarise()} (the admin server calls it every few seconds) or by the next failure after the
 * period. Sources are remembered in a bounded table, like {@link SourceThrottle}'s.
 */
public final class FailureLog {

    public static final Duration PERIOD = Duration.ofSeconds(10);
    public static final int MAX_LINES_PER_PERIOD = 20;

    private final Logger log;
    private final String what;
    private final Clock clock;
    /** Source key to the time of its last line; in access order, the least recently seen evicted first. */
    private final LinkedHashMap<String, Instant> lastLine;
    private Instant periodStart;
    private int linesThisPeriod;
    private long leftOut;

    /**
     * @param what names the secret in every line, e.g. {@code "console login"}
     */
    public FailureLog(Logger log, String what, Clock clock) {
        this(log, what, clock, SourceThrottle.MAX_SOURCES);
    }

    FailureLog(Logger log, String what, Clock clock, int maxSources) {
        this.log = log;
        this.what = what;
        this.clock = clock;
        this.periodStart = clock.instant();
        this.lastLine = new LinkedHashMap<>(256, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Instant> eldest) {
                return size() > maxSources;
            }
        };
    }

    /**
     * A failure from {@code source}; {@code detail} (written by the caller, never request text) says what
     * happened.
     */
    public synchronized void failed(String source, String detail) {
        Instant now = clock.instant();
        rollPeriod(now);
        String key = SourceThrottle.key(source);
        Instant last = lastLine.get(key);
        if ((last != null && now.isBefore(last.plus(PERIOD))) || linesThisPeriod >= MAX_LINES_PER_PERIOD) {
            leftOut++;
            return;
        }
        lastLine.put(key, now);
        linesThisPeriod++;
        log.warn("{} failed from {}: {}", what, source, detail);
    }

    /** Writes the summary of the lines left out, once the current period is over. */
    public synchronized void summarise() {
        rollPeriod(clock.instant());
    }

    private void rollPeriod(Instant now) {
        if (now.isBefore(periodStart.plus(PERIOD))) {
            return;
        }
        if (leftOut > 0) {
            log.warn("{} failed {} more times in the last {} s, not logged one by one (at most one line per address "
                    + "per {} s and {} lines per {} s)", what, leftOut, Duration.between(periodStart, now).toSeconds(),
                    PERIOD.toSeconds(), MAX_LINES_PER_PERIOD, PERIOD.toSeconds());
        }
        leftOut = 0;
        linesThisPeriod = 0;
        periodStart = now;
    }
}
