package io.loadwise.agent.sample;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;

/** Doubles every reading: a readings transform whose effect a test can see. */
public final class DoublingReadings implements UnaryOperator<Map<String, Double>> {
    @Override
    public Map<String, Double> apply(Map<String, Double> readings) {
        Map<String, Double> doubled = new LinkedHashMap<>();
        readings.forEach((k, v) -> doubled.put(k, 2 * v));
        return doubled;
    }
}
