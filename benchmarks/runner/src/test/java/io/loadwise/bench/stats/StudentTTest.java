package io.loadwise.bench.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class StudentTTest {

    @Test
    void quantilesMatchTheTables() {
        // t(0.975, df) from any statistics table
        assertEquals(12.7062, StudentT.quantile(0.975, 1), 1e-4);
        assertEquals(4.3027, StudentT.quantile(0.975, 2), 1e-4);
        assertEquals(2.7764, StudentT.quantile(0.975, 4), 1e-4);
        assertEquals(2.2281, StudentT.quantile(0.975, 10), 1e-4);
        assertEquals(2.0423, StudentT.quantile(0.975, 30), 1e-4);
        assertEquals(1.9623, StudentT.quantile(0.975, 1000), 1e-4);
        assertEquals(4.6041, StudentT.quantile(0.995, 4), 1e-4);
        assertEquals(3.7469, StudentT.quantile(0.99, 4), 1e-4);
        assertEquals(-2.7764, StudentT.quantile(0.025, 4), 1e-4);
    }

    @Test
    void cdfIsSymmetricAndHalfAtZero() {
        assertEquals(0.5, StudentT.cdf(0, 3), 1e-12);
        assertEquals(1 - StudentT.cdf(1.3, 2.5), StudentT.cdf(-1.3, 2.5), 1e-12);
        // df = 1 is the Cauchy distribution: 1/2 + atan(t)/pi
        assertEquals(0.5 + Math.atan(2) / Math.PI, StudentT.cdf(2, 1), 1e-10);
    }

    @Test
    void badArgumentsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> StudentT.quantile(1, 4));
        assertThrows(IllegalArgumentException.class, () -> StudentT.cdf(1, 0));
    }
}
