package io.loadwise.sim.service;

import io.loadwise.sim.workload.Trace;
import java.util.Arrays;
import java.util.SplittableRandom;

/** Every request takes the same time: seed 000's CPU-bound {@code index.php?iter=10000} (≈ 9.6 ms). */
public record DeterministicServiceTime(double seconds) implements ServiceTimeModel {

    public DeterministicServiceTime {
        ServiceTimeModels.requirePositive(seconds, "service time");
    }

    @Override
    public String description() {
        return String.format("deterministic, %.4g ms", seconds * 1e3);
    }

    @Override
    public double[] demands(Trace trace, SplittableRandom random) {
        double[] d = new double[trace.size()];
        Arrays.fill(d, seconds);
        return d;
    }
}
