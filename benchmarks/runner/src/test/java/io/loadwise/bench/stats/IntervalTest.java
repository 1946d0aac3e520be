package io.loadwise.bench.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class IntervalTest {

    @Test
    void fiveRunsGetAStudentTInterval() {
        Interval i = Interval.of(1, 2, 3, 4, 5);
        assertEquals(5, i.n());
        assertEquals(3, i.mean(), 1e-12);
        assertEquals(Math.sqrt(2.5), i.sd(), 1e-12);
        // t(0.975, 4) x s / sqrt(5) = 2.7764 x 1.5811 / 2.2361
        assertEquals(1.9632, i.halfWidth(), 1e-4);
        assertEquals("3.00 [1.04, 4.96]", i.format(2));
    }

    @Test
    void threeRunsAreWiderThanANormalIntervalWouldBe() {
        Interval i = Interval.of(500, 520, 540);
        assertEquals(4.3027 * 20 / Math.sqrt(3), i.halfWidth(), 1e-3);
        assertTrue(i.halfWidth() > 1.96 * 20 / Math.sqrt(3));
    }

    @Test
    void oneRunHasNoIntervalAndNoneHasNoMean() {
        assertEquals("512.3", Interval.of(512.3).format(1));
        assertTrue(Double.isNaN(Interval.of(512.3).halfWidth()));
        assertEquals("n/a", Interval.of().format(1));
        assertEquals(1, Interval.of(Double.NaN, 7).n(), "a figure a run did not report is left out");
    }

    @Test
    void identicalRunsHaveAZeroWidthInterval() {
        Interval i = Interval.of(0, 0, 0);
        assertEquals(0, i.halfWidth(), 0);
        assertEquals("0 [0, 0]", i.format(0));
    }
}
