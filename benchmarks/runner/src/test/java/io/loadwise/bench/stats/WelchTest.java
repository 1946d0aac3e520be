package io.loadwise.bench.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WelchTest {

    @Test
    void pValueOfAKnownPair() {
        // t = -5 with 8 degrees of freedom (equal variances): two-sided p = 0.001053
        assertEquals(0.001053, Welch.pValue(Interval.of(1, 2, 3, 4, 5), Interval.of(6, 7, 8, 9, 10)), 1e-6);
        assertTrue(Welch.differ(Interval.of(1, 2, 3, 4, 5), Interval.of(6, 7, 8, 9, 10)));
    }

    @Test
    void unequalVariancesUseWelchSatterthwaiteDegreesOfFreedom() {
        Interval a = Interval.of(10, 12, 14);
        Interval b = Interval.of(15, 25, 35, 20, 30);
        // t = (12 - 25) / sqrt(4/3 + 62.5/5) = -3.4953, df = 4.79: p = 0.01864 (numerical integration of the t density)
        assertEquals(0.01864, Welch.pValue(a, b), 1e-4);
    }

    @Test
    void noiseIsNotADifference() {
        assertFalse(Welch.differ(Interval.of(500, 600, 550), Interval.of(520, 580, 610)));
        assertFalse(Welch.differ(Interval.of(500), Interval.of(900)), "one run cannot show a difference");
    }

    @Test
    void constantRunsDifferExactlyWhenTheirMeansDo() {
        assertFalse(Welch.differ(Interval.of(0, 0, 0), Interval.of(0, 0, 0, 0, 0)));
        assertTrue(Welch.differ(Interval.of(0, 0, 0), Interval.of(2, 2, 2)));
    }
}
