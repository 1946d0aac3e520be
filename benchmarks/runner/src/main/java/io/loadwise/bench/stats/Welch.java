package io.loadwise.bench.stats;

import org.apache.commons.math3.stat.descriptive.StatisticalSummaryValues;
import org.apache.commons.math3.stat.inference.TTest;

/**
 * Welch's two-sided t-test for a difference of two means with unequal variances, at the 5 % level: the
 * test the sweep's rankings use to decide whether two policies differ beyond the run-to-run noise.
 */
public final class Welch {

    public static final double ALPHA = 0.05;

    private Welch() {
    }

    /**
     * Whether the means of {@code a} and {@code b} differ at the 5 % level. Fewer than two runs on either
     * side cannot show a difference (no estimate of the noise), so they never do. When both sides are
     * constant (zero variance, e.g. 0 failures in every run) the means differ exactly when they are unequal.
     */
    public static boolean differ(Interval a, Interval b) {
        if (a.n() < 2 || b.n() < 2) {
            return false;
        }
        double va = a.varianceOfMean();
        double vb = b.varianceOfMean();
        if (va + vb == 0) {
            return a.mean() != b.mean();
        }
        return pValue(a, b) < ALPHA;
    }

    /**
     * The two-sided p-value of Welch's test (Commons Math's {@code TTest}, unequal variances, Welch-Satterthwaite
     * degrees of freedom); both sides need two runs and the pair some variance.
     */
    public static double pValue(Interval a, Interval b) {
        return new TTest().tTest(summary(a), summary(b));
    }

    private static StatisticalSummaryValues summary(Interval i) {
        // TTest reads n, mean and variance only
        return new StatisticalSummaryValues(i.mean(), i.sd() * i.sd(), i.n(), Double.NaN, Double.NaN, i.mean() * i.n());
    }
}
