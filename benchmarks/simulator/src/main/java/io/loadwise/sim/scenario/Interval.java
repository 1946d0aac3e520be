package io.loadwise.sim.scenario;

import java.util.List;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * Mean of repeated runs with its 95 % confidence interval (Student's t; half-width 0 for a single run, which
 * then carries no interval).
 */
public record Interval(double mean, double halfWidth, int runs) {

    public static Interval of(List<Double> values) {
        int n = values.size();
        if (n == 0) {
            return new Interval(Double.NaN, Double.NaN, 0);
        }
        double mean = values.stream().mapToDouble(Double::doubleValue).sum() / n;
        if (n == 1) {
            return new Interval(mean, 0, 1);
        }
        double ss = 0;
        for (double v : values) {
            ss += (v - mean) * (v - mean);
        }
        double sd = Math.sqrt(ss / (n - 1));
        double t = new TDistribution(null, n - 1).inverseCumulativeProbability(0.975);
        return new Interval(mean, t * sd / Math.sqrt(n), n);
    }

    public double low() {
        return mean - halfWidth;
    }

    public double high() {
        return mean + halfWidth;
    }

    /** Whether the two intervals are disjoint: a difference beyond the noise. */
    public boolean separatedFrom(Interval other) {
        return high() < other.low() || other.high() < low();
    }

    public String format(String pattern) {
        String m = String.format(java.util.Locale.ROOT, pattern, mean);
        return runs > 1 ? m + " ± " + String.format(java.util.Locale.ROOT, pattern, halfWidth) : m;
    }
}
