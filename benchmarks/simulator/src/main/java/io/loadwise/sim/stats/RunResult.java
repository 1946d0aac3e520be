package io.loadwise.sim.stats;

/**
 * What one simulation run measured. Times in milliseconds.
 *
 * @param policy policy id, or {@code oracle-lwl}
 * @param offeredRate mean arrival rate of the replayed trace, req/s
 * @param requests requests served and counted (after warm-up)
 * @param rejected requests (after warm-up) for which the policy returned no node: the dispatcher's 503
 * @param utilisation busy fraction of each node over the run (first arrival to last completion)
 */
public record RunResult(String policy, double offeredRate, long requests, long rejected,
        double meanWait, double p50Wait, double p95Wait, double p99Wait,
        double meanResponse, double p50Response, double p95Response, double p99Response,
        double[] utilisation) {

    public double utilisationMean() {
        double sum = 0;
        for (double u : utilisation) {
            sum += u;
        }
        return sum / utilisation.length;
    }

    /** Standard deviation of the per-node utilisations: seed 004's measure of load imbalance. */
    public double utilisationSpread() {
        double mean = utilisationMean();
        double sq = 0;
        for (double u : utilisation) {
            sq += (u - mean) * (u - mean);
        }
        return Math.sqrt(sq / utilisation.length);
    }
}
