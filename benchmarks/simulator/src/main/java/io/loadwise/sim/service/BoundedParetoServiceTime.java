package io.loadwise.sim.service;

import io.loadwise.sim.workload.Trace;
import java.util.SplittableRandom;

/**
 * Heavy-tailed service times: the bounded Pareto BP(α, L, H) of Harchol-Balter's size-based scheduling
 * studies (seed 002 §1.6), density ∝ x^−(α+1) on [L, H]. Given by its shape α, the ratio H/L and the mean;
 * L follows from the mean, so a bounded Pareto run and an exponential run at the same {@code --service-ms}
 * put the same load on the nodes.
 *
 * @param alpha tail index α (> 0; web file sizes ≈ 1.1, seed 002's SURGE tail)
 * @param ratio H/L (> 1)
 * @param meanSeconds mean service time at speed 1
 */
public record BoundedParetoServiceTime(double alpha, double ratio, double meanSeconds) implements ServiceTimeModel {

    public BoundedParetoServiceTime {
        ServiceTimeModels.requirePositive(alpha, "bounded Pareto α");
        ServiceTimeModels.requirePositive(meanSeconds, "mean service time");
        if (!(ratio > 1) || Double.isInfinite(ratio)) {
            throw new IllegalArgumentException("bounded Pareto max/min ratio must be a number > 1, got " + ratio);
        }
    }

    /** L, the smallest service time. */
    public double minSeconds() {
        return meanSeconds / moment(1);
    }

    public double maxSeconds() {
        return minSeconds() * ratio;
    }

    /** Squared coefficient of variation Var/mean², what {@code loadwise capacity --service-scv} takes. */
    public double scv() {
        double m1 = moment(1);
        return moment(2) / (m1 * m1) - 1;
    }

    /**
     * E[(S/L)^k] for k = 1, 2: α/(1 − r^−α) · ∫₁^r x^(k−α−1) dx, which is (r^(k−α) − 1)/(k − α), or ln r at
     * k = α.
     */
    private double moment(int k) {
        double integral = Math.abs(k - alpha) < 1e-9 ? Math.log(ratio) : (Math.pow(ratio, k - alpha) - 1) / (k - alpha);
        return alpha / (1 - Math.pow(ratio, -alpha)) * integral;
    }

    @Override
    public String description() {
        return String.format("bounded Pareto α = %.3g, %.4g .. %.4g ms, mean %.4g ms, c_s² = %.3g", alpha,
                minSeconds() * 1e3, maxSeconds() * 1e3, meanSeconds * 1e3, scv());
    }

    /** Inverse transform: x = L·(1 − u(1 − r^−α))^(−1/α). */
    @Override
    public double[] demands(Trace trace, SplittableRandom random) {
        double min = minSeconds();
        double tail = 1 - Math.pow(ratio, -alpha);
        double[] d = new double[trace.size()];
        for (int i = 0; i < d.length; i++) {
            d[i] = min * Math.pow(1 - random.nextDouble() * tail, -1 / alpha);
        }
        return d;
    }
}
