package io.loadwise.sim.link;

/**
 * One discipline's run: every request's response time (for the paired, per-request comparison seed 002
 * calls the starvation stretch) and what the link carried.
 *
 * @param responseSeconds response time of each request, by its index in the trace
 * @param clients each request's client path (for the per-WAN breakdown)
 * @param throughputBytesPerSecond bytes sent over the time from the first arrival to the last completion
 */
public record LinkRunResult(ResponseDiscipline discipline, double[] responseSeconds, ClientPath[] clients,
        double throughputBytesPerSecond) {

    /** Mean response time in ms over requests {@code from} (the warm-up is left out) to the end, of one WAN or all (−1). */
    public double meanResponseMillis(int from, int wan) {
        double sum = 0;
        long n = 0;
        for (int i = from; i < responseSeconds.length; i++) {
            if (wan < 0 || clients[i].wan() == wan) {
                sum += responseSeconds[i];
                n++;
            }
        }
        return n == 0 ? Double.NaN : sum / n * 1e3;
    }

    /**
     * Seed 002's starvation stretch against a baseline run of the same requests: S(r) = RT(r)/RT_base(r).
     *
     * @return {share of requests with S > 1, the largest S}
     */
    public double[] stretch(LinkRunResult baseline, int from) {
        long worse = 0;
        double max = 0;
        for (int i = from; i < responseSeconds.length; i++) {
            double s = responseSeconds[i] / baseline.responseSeconds[i];
            // a request that finishes within a microsecond of its baseline time is not starved
            if (responseSeconds[i] > baseline.responseSeconds[i] + 1e-6) {
                worse++;
            }
            max = Math.max(max, s);
        }
        return new double[] {(double) worse / (responseSeconds.length - from), max};
    }
}
