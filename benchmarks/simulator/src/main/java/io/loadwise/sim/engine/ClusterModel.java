package io.loadwise.sim.engine;

import java.util.Arrays;

/**
 * The simulated cluster: relative speeds of the nodes (1 = the speed service demands are given for)
 * and the static weights weighted policies see.
 */
public record ClusterModel(double[] speeds, int[] weights) {

    public ClusterModel {
        if (speeds.length == 0) {
            throw new IllegalArgumentException("the cluster needs at least one node");
        }
        if (weights.length != speeds.length) {
            throw new IllegalArgumentException(
                    "got " + weights.length + " weights for " + speeds.length + " nodes");
        }
        for (double s : speeds) {
            if (!(s > 0) || Double.isInfinite(s)) {
                throw new IllegalArgumentException("node speeds must be positive numbers, got " + s);
            }
        }
        for (int w : weights) {
            if (w < 1) {
                throw new IllegalArgumentException("node weights must be at least 1, got " + w);
            }
        }
        speeds = speeds.clone();
        weights = weights.clone();
    }

    /** {@code n} identical nodes of speed 1 and weight 1. */
    public static ClusterModel homogeneous(int n) {
        return uniform(n, 1.0);
    }

    public static ClusterModel uniform(int n, double speed) {
        if (n < 1) {
            throw new IllegalArgumentException("the cluster needs at least one node, got " + n);
        }
        double[] s = new double[n];
        Arrays.fill(s, speed);
        int[] w = new int[n];
        Arrays.fill(w, 1);
        return new ClusterModel(s, w);
    }

    public int size() {
        return speeds.length;
    }

    @Override
    public double[] speeds() {
        return speeds.clone();
    }

    @Override
    public int[] weights() {
        return weights.clone();
    }
}
