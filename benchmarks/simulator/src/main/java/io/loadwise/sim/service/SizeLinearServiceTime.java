package io.loadwise.sim.service;

import io.loadwise.sim.workload.Trace;
import java.util.SplittableRandom;

/**
 * Seed 004's web-server model, {@code service time = L/K + C}, with separate K and C for static and
 * dynamic (CGI) requests. L is the response size in bytes.
 *
 * @param staticBytesPerSecond K for static files
 * @param staticSeconds C for static files
 * @param dynamicBytesPerSecond K for dynamic requests
 * @param dynamicSeconds C for dynamic requests
 */
public record SizeLinearServiceTime(String name, double staticBytesPerSecond, double staticSeconds,
        double dynamicBytesPerSecond, double dynamicSeconds) implements ServiceTimeModel {

    /**
     * The values Teo and Ayani measured on their testbed (seed 004 §3): static K = 59.5 MB/s, C = 0.9 ms;
     * dynamic K = 0.595 MB/s, C = 4.2 ms (MB taken as 10^6 bytes).
     */
    public static final SizeLinearServiceTime TEO_AYANI =
            new SizeLinearServiceTime("teo-ayani", 59.5e6, 0.9e-3, 0.595e6, 4.2e-3);

    public SizeLinearServiceTime {
        ServiceTimeModels.requirePositive(staticBytesPerSecond, "static K");
        ServiceTimeModels.requirePositive(dynamicBytesPerSecond, "dynamic K");
        if (!(staticSeconds >= 0) || !(dynamicSeconds >= 0)) {
            throw new IllegalArgumentException("C must be zero or positive");
        }
    }

    @Override
    public String description() {
        return String.format("%s: L/K + C, static K=%.4g B/s C=%.4g ms, dynamic K=%.4g B/s C=%.4g ms",
                name, staticBytesPerSecond, staticSeconds * 1e3, dynamicBytesPerSecond, dynamicSeconds * 1e3);
    }

    @Override
    public double[] demands(Trace trace, SplittableRandom random) {
        double[] d = new double[trace.size()];
        for (int i = 0; i < d.length; i++) {
            d[i] = trace.dynamic(i)
                    ? trace.sizeBytes(i) / dynamicBytesPerSecond + dynamicSeconds
                    : trace.sizeBytes(i) / staticBytesPerSecond + staticSeconds;
        }
        return d;
    }
}
