package io.loadwise.sim.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SurgeWorkloadTest {

    @Test
    void sameSeedSameTraceOtherSeedOtherTrace() {
        Trace a = SurgeWorkload.generate(SurgeParameters.DEFAULT, 20_000, 42);
        Trace b = SurgeWorkload.generate(SurgeParameters.DEFAULT, 20_000, 42);
        Trace c = SurgeWorkload.generate(SurgeParameters.DEFAULT, 20_000, 43);
        for (int i = 0; i < a.size(); i++) {
            assertEquals(a.arrivalNanos(i), b.arrivalNanos(i));
            assertEquals(a.sizeBytes(i), b.sizeBytes(i));
        }
        assertNotEquals(a.arrivalNanos(a.size() - 1), c.arrivalNanos(c.size() - 1));
    }

    @Test
    void followsTheTable1Shapes() {
        Trace t = SurgeWorkload.generate(SurgeParameters.DEFAULT, 100_000, 7);
        Map<Long, Integer> perSize = new HashMap<>();
        long max = 0;
        int small = 0;
        for (int i = 0; i < t.size(); i++) {
            long s = t.sizeBytes(i);
            assertTrue(s >= 1 && s <= 3_119_822, "size " + s + " outside 1 B .. the truncation");
            max = Math.max(max, s);
            if (s < 16_384) {
                small++;
            }
            perSize.merge(s, 1, Integer::sum); // a file's size identifies it in practice
        }
        // lognormal body (median e^9.357 ≈ 11.6 kB): most requests are small (seed 002: 82.9 % < 16 KB)
        double smallShare = (double) small / t.size();
        assertTrue(smallShare > 0.5 && smallShare < 0.9, "share < 16 KB: " + smallShare);
        // Zipf: the most popular file gets far more than the 1/2000 a uniform choice would give
        int top = perSize.values().stream().max(Integer::compare).orElseThrow();
        assertTrue(top > 20 * t.size() / 2000, "most popular file requested " + top + " times");
        assertTrue(perSize.size() <= 2000, "only 2000 files exist");
        assertTrue(max > 133_000, "the Pareto tail is present");
        // 400 UEs, ≈ 2.7 requests per ON/OFF cycle of ≈ 12 s: tens of requests per second, not thousands
        assertTrue(t.meanRatePerSecond() > 20 && t.meanRatePerSecond() < 400, "rate " + t.meanRatePerSecond());
    }
}
