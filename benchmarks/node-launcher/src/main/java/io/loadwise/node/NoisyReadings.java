package io.loadwise.node;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;

/**
 * The agent's readings made deliberately noisy (issue 31's real-node run): every reading is multiplied
 * by a factor drawn uniformly within {@code 1 ± noise}, percentages (names ending in {@code %}) kept
 * within 0..100. Installed on a node as the agent's readings transform ({@code
 * -Dloadwise.agent.readings.transform=io.loadwise.node.NoisyReadings}, the noise from {@value
 * #NOISE_PROPERTY}) by {@code bench sweep --agent-noise}; a benchmark part, never shipped with the agent.
 *
 * <p>Called on the agent's single sampler thread; the random source is this object's own.
 */
public final class NoisyReadings implements UnaryOperator<Map<String, Double>> {

    /** System property with the relative noise, at least 0 and below 1 (0.2: ±20 %). */
    public static final String NOISE_PROPERTY = "loadwise.bench.agent.noise";
    /** The agent's setting that names its readings transform. */
    public static final String TRANSFORM_PROPERTY = "loadwise.agent.readings.transform";

    private final double noise;
    private final SplittableRandom random;

    /** The transform the agent makes: noise from {@value #NOISE_PROPERTY}. */
    public NoisyReadings() {
        this(parse(System.getProperty(NOISE_PROPERTY)), new SplittableRandom());
    }

    NoisyReadings(double noise, SplittableRandom random) {
        if (!(noise >= 0 && noise < 1)) {
            throw new IllegalArgumentException(NOISE_PROPERTY + " must be at least 0 and below 1, got " + noise);
        }
        this.noise = noise;
        this.random = random;
    }

    private static double parse(String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(NOISE_PROPERTY + " is not set: the noise the readings get");
        }
        try {
            return Double.parseDouble(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(NOISE_PROPERTY + " is not a number: '" + value + "'", e);
        }
    }

    @Override
    public Map<String, Double> apply(Map<String, Double> readings) {
        Map<String, Double> noisy = new LinkedHashMap<>();
        for (Map.Entry<String, Double> e : readings.entrySet()) {
            double v = e.getValue() * (1 + noise * (2 * random.nextDouble() - 1));
            noisy.put(e.getKey(), e.getKey().endsWith("%") ? Math.max(0, Math.min(100, v)) : v);
        }
        return noisy;
    }
}
