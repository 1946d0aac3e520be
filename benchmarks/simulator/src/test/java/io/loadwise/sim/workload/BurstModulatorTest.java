package io.loadwise.sim.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BurstModulatorTest {

    @Test
    void reachesTheTargetBurstinessKeepingEveryRequest() {
        Trace steady = SurgeWorkload.generate(SurgeParameters.DEFAULT, 100_000, 9);
        Trace bursty = BurstModulator.modulate(steady, 1.53, 0.48, 100, 1);
        assertEquals(steady.size(), bursty.size());
        double[] ab = bursty.burstiness(100);
        assertEquals(1.53, ab[0], 0.03);
        assertEquals(0.48, ab[1], 0.02);
        assertEquals(steady.meanRatePerSecond(), bursty.meanRatePerSecond(), 0.02 * steady.meanRatePerSecond());
        long sizes = 0;
        for (int i = 0; i < bursty.size(); i++) {
            sizes += bursty.sizeBytes(i) - steady.sizeBytes(i);
        }
        assertEquals(0, sizes, "requests keep their order and sizes");
    }

    @Test
    void rejectsImpossibleTargets() {
        Trace t = PoissonWorkload.generate(1000, 10, 1, 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BurstModulator.modulate(t, 2.5, 0.5, 100, 1));
        assertTrue(e.getMessage().contains("a·b < 1"), e.getMessage());
    }
}
