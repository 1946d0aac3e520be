package io.loadwise.policy.builtin;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.PolicyMetric;
import io.loadwise.policy.PolicyOptions;
import java.util.List;

/**
 * Equation 1 of seed 001 (F5 Dynamic Ratio), with TAPR-11's metric mapping:
 * <pre>
 * weight = round( base^(memCoef  * (memThr  - OS_MEM_USED%)   / memThr)
 *               + base^(cpuCoef  * (cpuThr  - OS_CPU_USED%)   / cpuThr)
 *               + base^(diskCoef * (diskThr - OS_CPU_IOWAIT%) / diskThr) ), clamped to 1..100
 * </pre>
 * where base is the "number of nodes in pool", always 10 in F5's formula.
 *
 * @param nodesInPool the base of the power terms
 */
record F5Weights(double nodesInPool, double memoryCoefficient, double memoryThreshold, double cpuCoefficient,
        double cpuThreshold, double diskCoefficient, double diskThreshold) {

    static final List<String> OPTION_NAMES = List.of("nodesInPool", "memoryCoefficient", "memoryThreshold",
            "cpuCoefficient", "cpuThreshold", "diskCoefficient", "diskThreshold");

    static final F5Weights DEFAULTS = new F5Weights(10, 1.0, 70, 1.5, 80, 2.0, 90);

    static final int MIN_WEIGHT = 1;
    static final int MAX_WEIGHT = 100;

    static List<String> validate(PolicyOptions options) {
        List<String> errors = options.rejectUnknown(OPTION_NAMES);
        options.checkRange("nodesInPool", 2, 1000, errors);
        options.checkRange("memoryCoefficient", 0, 10, errors);
        options.checkRange("cpuCoefficient", 0, 10, errors);
        options.checkRange("diskCoefficient", 0, 10, errors);
        options.checkRange("memoryThreshold", 1, 100, errors);
        options.checkRange("cpuThreshold", 1, 100, errors);
        options.checkRange("diskThreshold", 1, 100, errors);
        return errors;
    }

    static F5Weights from(PolicyOptions o) {
        F5Weights d = DEFAULTS;
        return new F5Weights(o.get("nodesInPool", d.nodesInPool),
                o.get("memoryCoefficient", d.memoryCoefficient), o.get("memoryThreshold", d.memoryThreshold),
                o.get("cpuCoefficient", d.cpuCoefficient), o.get("cpuThreshold", d.cpuThreshold),
                o.get("diskCoefficient", d.diskCoefficient), o.get("diskThreshold", d.diskThreshold));
    }

    /** The unrounded sum of the three terms, or NaN when the sample lacks one of the metrics. */
    double rawWeight(double memoryUsed, double cpuUsed, double diskUsed) {
        return term(memoryCoefficient, memoryThreshold, memoryUsed)
                + term(cpuCoefficient, cpuThreshold, cpuUsed)
                + term(diskCoefficient, diskThreshold, diskUsed);
    }

    private double term(double coefficient, double threshold, double utilization) {
        return Math.pow(nodesInPool, coefficient * (threshold - utilization) / threshold);
    }

    /** The node's ratio weight, 1..100, or 0 when the sample is missing or lacks a metric (node unknown). */
    int weight(AgentSample sample) {
        if (sample == null) {
            return 0;
        }
        double raw = rawWeight(sample.value(PolicyMetric.OS_MEM_USED), sample.value(PolicyMetric.OS_CPU_USED),
                sample.value(PolicyMetric.OS_CPU_IOWAIT));
        if (Double.isNaN(raw)) {
            return 0;
        }
        return (int) Math.max(MIN_WEIGHT, Math.min(MAX_WEIGHT, Math.round(raw)));
    }
}
