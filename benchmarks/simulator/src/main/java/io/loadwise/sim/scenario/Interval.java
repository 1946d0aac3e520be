package io.loadwise.sim.scenario;

import java.util.List;

/**
 * Mean of repeated runs with its 95 % confidence interval (Student's t; half-width 0 for a single run, which
 * then carries no interval).
 */
public record Interval(double mean, double halfWidth, int runs) {

    /** Two-sided 97.5 % quantiles of Student's t for 1..30 degrees of freedom. */
    private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060,
        2.056, 2.052, 2.048, 2.045, 2.042};

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
        double t = n - 1 <= T975.length ? T975[n - 2] : 1.96;
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
