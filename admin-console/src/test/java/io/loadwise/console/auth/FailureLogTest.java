package io.loadwise.console.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.loadwise.console.testing.LogLines;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class FailureLogTest {

    private static final String LOGGER = "io.loadwise.test.failures";

    private final MutableClock clock = new MutableClock();
    private final LogLines lines = new LogLines(LOGGER, Level.INFO);
    private final FailureLog failures = new FailureLog(LoggerFactory.getLogger(LOGGER), "console login", clock);

    @AfterEach
    void detach() {
        lines.close();
    }

    @Test
    void oneLinePerSourcePerPeriodThenASummary() {
        for (int i = 0; i < 50; i++) {
            failures.failed("192.0.2.1", "wrong password (" + (i + 1) + " in a row)");
        }
        failures.failed("192.0.2.2", "wrong password (1 in a row)");
        assertEquals(List.of("WARN console login failed from 192.0.2.1: wrong password (1 in a row)",
                "WARN console login failed from 192.0.2.2: wrong password (1 in a row)"), lines.lines());

        clock.advance(FailureLog.PERIOD.minusMillis(1));
        failures.summarise();
        assertEquals(2, lines.lines().size(), "no summary before the period is over");
        clock.advance(Duration.ofMillis(1));
        failures.summarise();
        assertEquals("WARN console login failed 49 more times in the last 10 s, not logged one by one (at most one "
                + "line per address per 10 s and 20 lines per 10 s)", lines.lines().get(2));
        failures.summarise();
        assertEquals(3, lines.lines().size(), "nothing left out, nothing to summarise");

        failures.failed("192.0.2.1", "wrong password (51 in a row)");
        assertEquals("WARN console login failed from 192.0.2.1: wrong password (51 in a row)", lines.lines().get(3),
                "a new period gives the source a new line");
    }

    @Test
    void manySourcesCannotFloodTheLog() {
        for (int i = 0; i < 5_000; i++) {
            failures.failed("10.0." + (i >> 8) + "." + (i & 255), "invalid token");
        }
        assertEquals(FailureLog.MAX_LINES_PER_PERIOD, lines.lines().size());
        clock.advance(FailureLog.PERIOD);
        failures.failed("10.9.9.9", "invalid token");
        List<String> all = lines.lines();
        assertTrue(all.get(20).contains("failed 4980 more times"), all.get(20));
        assertEquals("WARN console login failed from 10.9.9.9: invalid token", all.get(21));
    }
}
