package io.loadwise.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PeakEwmaTest {

    private static final long MS = 1_000_000L;
    private static final long SECOND = 1_000 * MS;

    private final PeakEwma ewma = new PeakEwma();

    @Test
    void zeroBeforeAnyResponse() {
        assertEquals(0, ewma.valueNanos(0));
        assertEquals(0, ewma.valueNanos(100 * SECOND));
    }

    @Test
    void aSlowerResponseReplacesTheAverageAtOnce() {
        ewma.observe(0, 20 * MS);
        ewma.observe(10 * MS, 500 * MS);
        assertEquals(500 * MS, ewma.valueNanos(10 * MS), 1e-6);
    }

    @Test
    void fasterResponsesPullItDownWithWeightOneMinusExpOfTheGapOverTau() {
        ewma.observe(0, 1_000 * MS);
        ewma.observe(SECOND, 100 * MS);
        double keep = Math.exp(-1e9 / PeakEwma.DECAY_NANOS);
        assertEquals((1_000 * keep + 100 * (1 - keep)) * MS, ewma.valueNanos(SECOND), 1);
        for (int i = 2; i <= 100; i++) {
            ewma.observe(i * SECOND, 100 * MS);
        }
        assertEquals(100 * MS, ewma.valueNanos(100 * SECOND), 0.1 * MS, "after ten τ of fast responses");
    }

    @Test
    void withoutResponsesAReaderSeesItDecayTowardsZeroWithTau() {
        ewma.observe(0, 400 * MS);
        assertEquals(400 * MS * Math.exp(-1), ewma.valueNanos((long) PeakEwma.DECAY_NANOS), 1);
        assertEquals(400 * MS, ewma.valueNanos(0), 1e-6, "reading wrote nothing");
    }

    @Test
    void theShortcutForRecentResponsesMatchesExp() {
        for (double x = 0; x < 0.05; x += 0.0005) {
            assertEquals(Math.exp(-x), PeakEwma.decay(x), 2e-7, "x = " + x);
        }
    }

    @Test
    void nodeCountersFeedItOnEveryTimedResponse() {
        NodeCounters counters = new NodeCounters();
        counters.requestSent();
        counters.requestEnded(0, 30 * MS);
        counters.requestSent();
        counters.requestEnded(5 * MS, -1); // failed: no time
        assertEquals(30, counters.peakEwmaResponseMillis(0), 1e-9, "the failed request left it alone");
    }
}
