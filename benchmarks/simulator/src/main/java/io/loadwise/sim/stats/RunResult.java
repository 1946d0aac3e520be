package io.loadwise.sim.stats;

/**
 * What one simulation run measured. Times in milliseconds.
 *
 * @param policy policy id, or {@code oracle-lwl}
 * @param offeredRate mean arrival rate of the replayed trace, req/s
 * @param requests requests served and counted (after warm-up)
 * @param rejected requests (after warm-up) for which the policy returned no node: the dispatcher's 503
 * @param utilisation busy fraction of each node over the run (first arrival to last completion)
 * @param probabilityOfWaiting share of the counted requests that queued before service: P(wait), Erlang C's
 *     C for M/M/n
 */
public record RunResult(String policy, double offeredRate, long requests, long rejected,
        double meanWait, double p50Wait, double p95Wait, double p99Wait,
        double meanResponse, double p50Response, double p95Response, double p99Response,
        double[] utilisation, double probabilityOfWaiting) {

    public double utilisationMean() {
        double sum = 0;
        for (double u : utilisation) {
            sum += u;
        }
        return sum / utilisation.length;
    }

    /** Rejected requests as a share of all counted arrivals (served + rejected), 0 when there were none. */
    public double rejectedFraction() {
        return rejected == 0 ? 0 : (double) rejected / (rejected + requests);
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
