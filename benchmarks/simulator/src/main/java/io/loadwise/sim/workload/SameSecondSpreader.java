package io.loadwise.sim.workload;

/**
 * Access logs stamp requests to the second. Replayed as is, every second would start with a burst, and
 * time scaling would make the bursts worse. Records that share a second are therefore spread evenly
 * over it, in log order: the k-th of n records of second s arrives at s + (k + 0.5)/n.
 */
final class SameSecondSpreader {

    private SameSecondSpreader() {
    }

    /** @param seconds whole-second timestamps, non-decreasing */
    static void spread(long[] seconds, int count, TraceBuilder into) {
        int i = 0;
        while (i < count) {
            int j = i;
            while (j < count && seconds[j] == seconds[i]) {
                j++;
            }
            int n = j - i;
            for (int k = 0; k < n; k++) {
                into.setArrival(i + k, seconds[i] * 1_000_000_000L + Math.round((k + 0.5) * 1e9 / n));
            }
            i = j;
        }
    }
}
