package io.loadwise.agent.jmx;

import java.util.Map;

/**
 * A metric computed from two other mapped metrics, for servers that keep a maximum on a different MBean
 * than the current value ({@code AMX_JDBC_ACTC% = AMX_JDBC_ACTC / AMX_JDBC_MAXC}). A percentage when the
 * name ends with {@code %}; absent when either input is absent or the denominator is not positive.
 */
final class DerivedRatio {

    private final String metric;
    private final String numerator;
    private final String denominator;

    DerivedRatio(String metric, String numerator, String denominator) {
        this.metric = metric;
        this.numerator = numerator;
        this.denominator = denominator;
    }

    String metric() {
        return metric;
    }

    String numerator() {
        return numerator;
    }

    String denominator() {
        return denominator;
    }

    double evaluate(Map<String, Double> values) {
        Double num = values.get(numerator);
        Double den = values.get(denominator);
        if (num == null || den == null || den <= 0) {
            return Double.NaN;
        }
        return (metric.endsWith("%") ? 100 : 1) * num / den;
    }

    @Override
    public String toString() {
        return metric + " = " + numerator + " / " + denominator;
    }
}
