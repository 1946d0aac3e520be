package io.loadwise.sim.workload;

import java.util.SplittableRandom;

/** Open-loop Poisson arrivals (exponential inter-arrival times), the workload of seeds 000/003. */
public final class PoissonWorkload {

    private PoissonWorkload() {
    }

    /**
     * @param sizeBytes response size given to every request (matters only for size-based service models)
     */
    public static Trace generate(int requests, double ratePerSecond, long sizeBytes, long seed) {
        if (requests < 2) {
            throw new IllegalArgumentException("a Poisson workload needs at least 2 requests, got " + requests);
        }
        if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond)) {
            throw new IllegalArgumentException("arrival rate must be a positive number, got " + ratePerSecond);
        }
        SplittableRandom random = new SplittableRandom(seed);
        TraceBuilder trace = new TraceBuilder();
        double meanGapNanos = 1e9 / ratePerSecond;
        double t = 0;
        for (int i = 0; i < requests; i++) {
            trace.add(Math.round(t), sizeBytes, false);
            t += -Math.log(1.0 - random.nextDouble()) * meanGapNanos;
        }
        return trace.build("Poisson arrivals");
    }
}
