package io.loadwise.bench.chaos;

/**
 * The drift of a sampled figure (RSS, open descriptors, threads): the least-squares slope of the samples after
 * a warm-up, in percent of their mean per hour.
 */
final class Slope {

    private Slope() {
    }

    /**
     * The warm-up the soak leaves out of the slope: the first 10 % of the run, at most 5 minutes.
     */
    static double warmUpSeconds(double runSeconds) {
        return Math.min(runSeconds * 0.10, 300);
    }

    /**
     * Least-squares slope of {@code y} over {@code t} (seconds), of the points at or after {@code fromSeconds},
     * as % of their mean per hour; NaN with fewer than 2 such points, a zero mean or all at one time.
     */
    static double percentPerHour(double[] t, double[] y, double fromSeconds) {
        int n = 0;
        double st = 0;
        double sy = 0;
        for (int i = 0; i < t.length; i++) {
            if (t[i] >= fromSeconds) {
                n++;
                st += t[i];
                sy += y[i];
            }
        }
        if (n < 2) {
            return Double.NaN;
        }
        double mt = st / n;
        double my = sy / n;
        double cov = 0;
        double var = 0;
        for (int i = 0; i < t.length; i++) {
            if (t[i] >= fromSeconds) {
                cov += (t[i] - mt) * (y[i] - my);
                var += (t[i] - mt) * (t[i] - mt);
            }
        }
        if (var == 0 || my == 0) {
            return Double.NaN;
        }
        return cov / var * 3_600 / my * 100;
    }
}
