package io.loadwise.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class NoisyReadingsTest {

    @Test
    void everyReadingMovesWithinItsBandAndPercentagesStayPercentages() {
        NoisyReadings noisy = new NoisyReadings(0.2, new SplittableRandom(1));
        double low = Double.MAX_VALUE;
        double high = 0;
        for (int i = 0; i < 10_000; i++) {
            Map<String, Double> out = noisy.apply(Map.of("OS_CPU_USED%", 50.0, "JVM_HEAP_USED%", 95.0, "APP_RQST_RATE", 200.0));
            double cpu = out.get("OS_CPU_USED%");
            low = Math.min(low, cpu);
            high = Math.max(high, cpu);
            assertTrue(out.get("JVM_HEAP_USED%") <= 100, "a percentage stays at most 100");
            double rate = out.get("APP_RQST_RATE");
            assertTrue(rate >= 160 && rate <= 240, "a rate moves within ±20 %: " + rate);
        }
        assertTrue(low >= 40 && low < 40.1 && high <= 60 && high > 59.9, "the whole band is used: " + low + ".." + high);
    }

    @Test
    void noNoiseIsIdentityAndABadSettingIsNamed() {
        assertEquals(Map.of("OS_CPU_USED%", 50.0), new NoisyReadings(0, new SplittableRandom(1)).apply(Map.of("OS_CPU_USED%", 50.0)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new NoisyReadings(1.5, new SplittableRandom()));
        assertEquals("loadwise.bench.agent.noise must be at least 0 and below 1, got 1.5", e.getMessage());
        String before = System.getProperty(NoisyReadings.NOISE_PROPERTY);
        try {
            System.setProperty(NoisyReadings.NOISE_PROPERTY, "lots");
            e = assertThrows(IllegalArgumentException.class, NoisyReadings::new);
            assertEquals("loadwise.bench.agent.noise is not a number: 'lots'", e.getMessage());
        } finally {
            if (before == null) {
                System.clearProperty(NoisyReadings.NOISE_PROPERTY);
            } else {
                System.setProperty(NoisyReadings.NOISE_PROPERTY, before);
            }
        }
    }
}
