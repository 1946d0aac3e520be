package io.loadwise.sim.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.loadwise.sim.workload.PoissonWorkload;
import io.loadwise.sim.workload.Trace;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ServiceTimeModelsTest {

    @Test
    void teoAyaniProfileIsSeed004sLinearModel() {
        Trace t = PoissonWorkload.generate(2, 1, 13_564, 1);
        double[] d = ServiceTimeModels.parse("teo-ayani", 0.01).demands(t, new SplittableRandom(1));
        assertEquals(13_564 / 59.5e6 + 0.9e-3, d[0], 1e-15, "static: L/K + C");
    }

    @Test
    void customSizeLinearAndExponentialMean() {
        Trace t = PoissonWorkload.generate(200_000, 1, 1_000_000, 1);
        double[] lin = ServiceTimeModels.parse("size-linear:1e6,2,1e5,3", 0.01).demands(t, new SplittableRandom(1));
        assertEquals(1.0 + 0.002, lin[0], 1e-12);
        double[] exp = ServiceTimeModels.parse("exponential", 0.01).demands(t, new SplittableRandom(2));
        double mean = java.util.Arrays.stream(exp).average().orElseThrow();
        assertEquals(0.01, mean, 0.01 * 0.01);
        double[] det = ServiceTimeModels.parse("deterministic", 0.0096).demands(t, new SplittableRandom(3));
        assertEquals(0.0096, det[12345], 0);
    }
}
