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
    void badScalingAndEmptyTracesAreRejected() {
        Trace t = PoissonWorkload.generate(10, 50, 100, 1);
        assertThrows(IllegalArgumentException.class, () -> t.timeScaled(0));
        assertThrows(IllegalArgumentException.class, () -> t.scaledToRate(-5));
        assertThrows(IllegalArgumentException.class, () -> new TraceBuilder().build("empty"));
    }
}
