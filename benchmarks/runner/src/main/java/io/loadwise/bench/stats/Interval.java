package io.loadwise.bench.stats;

import org.apache.commons.math3.distribution.TDistribution;
import java.util.Arrays;
import java.util.Locale;

/**
 * The mean of a few repeated runs with its 95 % confidence interval, mean &plusmn; t(0.975, n-1) s / &radic;n
 * (Student's t, because n is small: 3 to 5 runs). With one run there is no interval ({@link #halfWidth()}
 * is NaN); identical runs give a zero-width one.
 *
 * @param n        runs
 * @param mean     their mean
 * @param sd       sample standard deviation (n-1), NaN for one run
 * @param halfWidth half the 95 % interval, NaN for one run
 */
public record Interval(int n, double mean, double sd, double halfWidth) {

    public static final double CONFIDENCE = 0.95;

    /** The interval of {@code values}; NaN values (a figure a run did not report) are left out. */
    public static Interval of(double... values) {
        double[] v = Arrays.stream(values).filter(x -> !Double.isNaN(x)).toArray();
        if (v.length == 0) {
            return new Interval(0, Double.NaN, Double.NaN, Double.NaN);
        }
        double mean = Arrays.stream(v).average().orElseThrow();
        if (v.length == 1) {
            return new Interval(1, mean, Double.NaN, Double.NaN);
        }
        double sd = Math.sqrt(Arrays.stream(v).map(x -> (x - mean) * (x - mean)).sum() / (v.length - 1));
        double t = new TDistribution(null, v.length - 1).inverseCumulativeProbability(1 - (1 - CONFIDENCE) / 2);
        return new Interval(v.length, mean, sd, t * sd / Math.sqrt(v.length));
    }

    public double low() {
        return mean - halfWidth;
    }

    public double high() {
        return mean + halfWidth;
    }

    /** The variance of the mean, s&sup2;/n (NaN for one run). */
    double varianceOfMean() {
        return sd * sd / n;
    }

    /** "512.3 [498.1, 526.5]", "512.3" for one run, "n/a" for none. */
    public String format(int decimals) {
        if (n == 0) {
            return "n/a";
        }
        String f = "%." + decimals + "f";
        if (n == 1) {
            return String.format(Locale.ROOT, f, mean);
        }
        return String.format(Locale.ROOT, f + " [" + f + ", " + f + "]", mean, low(), high());
    }
}
