package io.loadwise.capacity;

/** Closed forms for M/M/1 and M/M/c; rates in requests per second, times in seconds. */
public final class QueueingFormulas {

    private QueueingFormulas() {
    }

    /** M/M/1: ρ = λ/μ, R = 1/(μ − λ), Wq = ρ/(μ − λ), N = ρ/(1 − ρ) (seed 000 eqs. 2.7-2.9). */
    public static QueueModel.Prediction mm1(double lambda, double mu) {
        double rho = lambda / mu;
        if (rho >= 1) {
            return unstable(rho);
        }
        return new QueueModel.Prediction(rho, 1 / (mu - lambda), rho / (mu - lambda), rho / (1 - rho), rho);
    }

    /**
     * M/M/c with Erlang C (seed 000 eqs. 2.13-2.16), computed through the Erlang B recursion
     * B(k) = a·B(k−1)/(k + a·B(k−1)), C = B/(1 − ρ(1 − B)), which stays accurate for large c where the
     * factorial form overflows.
     */
    public static QueueModel.Prediction mmc(double lambda, double mu, int c) {
        double a = lambda / mu;
        double rho = a / c;
        if (rho >= 1) {
            return unstable(rho);
        }
        double erlangC = erlangC(a, c);
        double wait = erlangC / (c * mu - lambda);
        double response = wait + 1 / mu;
        return new QueueModel.Prediction(rho, response, wait, lambda * response, erlangC);
    }

    /** Probability that an arrival waits in M/M/c with offered load a = λ/μ. */
    public static double erlangC(double a, int c) {
        double b = 1;
        for (int k = 1; k <= c; k++) {
            b = a * b / (k + a * b);
        }
        double rho = a / c;
        return b / (1 - rho * (1 - b));
    }

    static void check(double lambda, double mu, int servers) {
        if (!(lambda >= 0) || Double.isInfinite(lambda)) {
            throw new IllegalArgumentException("arrival rate must be >= 0, got " + lambda);
        }
        if (!(mu > 0) || Double.isInfinite(mu)) {
            throw new IllegalArgumentException("service rate must be > 0, got " + mu);
        }
        if (servers < 1) {
            throw new IllegalArgumentException("servers must be >= 1, got " + servers);
        }
    }

    private static QueueModel.Prediction unstable(double rho) {
        double inf = Double.POSITIVE_INFINITY;
        return new QueueModel.Prediction(rho, inf, inf, inf, 1);
    }
}
