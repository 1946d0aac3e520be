package io.loadwise.sim.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class TraceTest {

    @Test
    void timeScalingDividesTheRateAndKeepsTheOrder() {
        Trace t = PoissonWorkload.generate(10_000, 50, 100, 1);
        assertEquals(50, t.meanRatePerSecond(), 50 * 0.03, "Poisson sample mean rate");
        Trace faster = t.timeScaled(0.25);
        assertEquals(4 * t.meanRatePerSecond(), faster.meanRatePerSecond(), 1e-6 * faster.meanRatePerSecond());
        assertEquals(t.arrivalNanos(7) - t.arrivalNanos(6), 4 * (faster.arrivalNanos(7) - faster.arrivalNanos(6)), 2);
        assertEquals(400, t.scaledToRate(400).meanRatePerSecond(), 400 * 1e-6);
    }

    @Test
    void burstinessFactorSeparatesSteadyFromBurstyTraces() {
        double[] steady = PoissonWorkload.generate(100_000, 50, 100, 3).burstiness(100);
        assertEquals(1.0, steady[0], 0.05, "a of a Poisson trace");
        assertEquals(0.5, steady[1], 0.15, "b of a Poisson trace");
        TraceBuilder bursty = new TraceBuilder();
        long t = 0;
        for (int epoch = 0; epoch < 100; epoch++) {
            int n = epoch % 5 == 0 ? 400 : 100; // every fifth epoch four times as busy
            for (int i = 0; i < n; i++) {
                bursty.add(t, 1, false);
                t += 1_000_000_000L / n;
            }
        }
        double[] ab = bursty.build("bursty").burstiness(100);
        assertEquals(0.2, ab[1], 0.02);
        assertEquals(400 / 160.0, ab[0], 0.1, "busy epochs over the mean of 160 per epoch");
    }

    @Test
    void badScalingAndEmptyTracesAreRejected() {
        Trace t = PoissonWorkload.generate(10, 50, 100, 1);
        assertThrows(IllegalArgumentException.class, () -> t.timeScaled(0));
        assertThrows(IllegalArgumentException.class, () -> t.scaledToRate(-5));
        assertThrows(IllegalArgumentException.class, () -> new TraceBuilder().build("empty"));
    }
}
