package io.loadwise.sim.service;

import io.loadwise.sim.workload.Trace;
import java.util.SplittableRandom;

/** Memoryless service times, the "M" in M/M/1 and M/M/c. */
public record ExponentialServiceTime(double meanSeconds) implements ServiceTimeModel {

    public ExponentialServiceTime {
        ServiceTimeModels.requirePositive(meanSeconds, "mean service time");
    }

    @Override
    public String description() {
        return String.format("exponential, mean %.4g ms", meanSeconds * 1e3);
    }

    @Override
    public double[] demands(Trace trace, SplittableRandom random) {
        double[] d = new double[trace.size()];
        for (int i = 0; i < d.length; i++) {
            d[i] = -Math.log(1.0 - random.nextDouble()) * meanSeconds;
        }
        return d;
    }
}
