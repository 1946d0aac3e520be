package io.loadwise.sim.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.sim.workload.PoissonWorkload;
import io.loadwise.sim.workload.Trace;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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

    @Test
    void boundedParetoHasTheRequestedMeanAndItsClosedFormVariability() {
        // BP(α = 1.5, H/L = 100): E[S]/L = 1.5/(1 − 100^−1.5)·(1 − 100^−0.5)/0.5 = 2.7027, E[S²]/L² = 27.027, so
        // c_s² = 27.027/2.7027² − 1 = 2.7 exactly; BP(2, 10): c_s² = (2 ln 10/0.99)/(1.8/0.99)² − 1 = 0.40714
        BoundedParetoServiceTime bp = (BoundedParetoServiceTime) ServiceTimeModels.parse("bounded-pareto:1.5,100", 0.01);
        assertEquals(2.7, bp.scv(), 1e-9);
        assertEquals(0.01 / 2.7027027, bp.minSeconds(), 1e-9);
        assertEquals(100 * bp.minSeconds(), bp.maxSeconds(), 1e-12);
        assertEquals(0.40714, new BoundedParetoServiceTime(2, 10, 1).scv(), 1e-5);
        assertEquals(0.52775, new BoundedParetoServiceTime(1, 10, 1).scv(), 1e-5, "α = 1 takes the logarithmic branch");

        Trace t = PoissonWorkload.generate(400_000, 1, 0, 1);
        double[] d = bp.demands(t, new SplittableRandom(5));
        double sum = 0;
        double sq = 0;
        for (double x : d) {
            assertTrue(x >= bp.minSeconds() && x <= bp.maxSeconds() * (1 + 1e-12), "within [L, H]: " + x);
            sum += x;
            sq += x * x;
        }
        double mean = sum / d.length;
        assertEquals(0.01, mean, 0.01 * 0.01, "mean within 1 %");
        assertEquals(2.7, sq / d.length / (mean * mean) - 1, 0.1, "sample c_s²");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "bounded-pareto:1.1|--service bounded-pareto:1.1: bounded-pareto needs 2 values, ALPHA,MAX_OVER_MIN, e.g. 1.1,1000",
        "bounded-pareto:1.1,x|--service bounded-pareto:1.1,x: 'x' is not a number",
        "bounded-pareto:0,100|bounded Pareto α must be a positive number, got 0.0",
        "bounded-pareto:1.1,1|bounded Pareto max/min ratio must be a number > 1, got 1.0"})
    void badBoundedParetoParametersAreNamed(String spec, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ServiceTimeModels.parse(spec, 0.01));
        assertEquals(message, e.getMessage());
    }
}
