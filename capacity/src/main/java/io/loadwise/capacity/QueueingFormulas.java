package io.loadwise.capacity;

/**
 * Closed forms and approximations for the planner's models; rates in requests per second, times in
 * seconds. {@code scv} is the squared coefficient of variation of the service time, c_s² = Var(S)/E[S]²:
 * 0 for a constant service time, 1 for exponential, above 1 for heavy-tailed service.
 */
public final class QueueingFormulas {

    /** Squared coefficient of variation of exponential service: the "M" of M/M/n. */
    public static final double EXPONENTIAL_SCV = 1;

    private QueueingFormulas() {
    }

    /** M/M/1: ρ = λ/μ, R = 1/(μ − λ), Wq = ρ/(μ − λ), N = ρ/(1 − ρ) (seed 000 eqs. 2.7-2.9). */
    public static QueueModel.Prediction mm1(double lambda, double mu) {
        return mg1(lambda, mu, EXPONENTIAL_SCV);
    }

    /**
     * M/G/1 by Pollaczek-Khinchine, exact for any service distribution with that c_s²:
     * Wq = ρ(1 + c_s²) / (2μ(1 − ρ)); c_s² = 1 gives M/M/1, c_s² = 0 gives M/D/1.
     */
    public static QueueModel.Prediction mg1(double lambda, double mu, double scv) {
        double rho = lambda / mu;
        if (rho >= 1) {
            return unstable(rho);
        }
        double wait = rho * (1 + scv) / (2 * mu * (1 - rho));
        return withWait(lambda, mu, rho, wait, rho);
    }

    /**
     * M/M/c with Erlang C (seed 000 eqs. 2.13-2.16), computed through the Erlang B recursion
     * B(k) = a·B(k−1)/(k + a·B(k−1)), C = B/(1 − ρ(1 − B)), which stays accurate for large c where the
     * factorial form overflows.
     */
    public static QueueModel.Prediction mmc(double lambda, double mu, int c) {
        return mgc(lambda, mu, c, EXPONENTIAL_SCV);
    }

    /**
     * M/G/c by the Lee-Longton approximation (Lee & Longton 1959; the Allen-Cunneen formula with Poisson
     * arrivals, c_a² = 1; Allen, <i>Probability, Statistics and Queueing Theory</i>, 2nd ed. 1990, §6.3):
     * Wq(M/G/c) ≈ Wq(M/M/c)·(1 + c_s²)/2. Exact for c = 1 (Pollaczek-Khinchine) and for c_s² = 1; for
     * M/D/c it is within a few per cent at the loads a planner cares about (tested against the simulator).
     * P(wait) stays the Erlang C value, which the approximation does not correct.
     */
    public static QueueModel.Prediction mgc(double lambda, double mu, int c, double scv) {
        double a = lambda / mu;
        double rho = a / c;
        if (rho >= 1) {
            return unstable(rho);
        }
        double erlangC = erlangC(a, c);
        double wait = erlangC / (c * mu - lambda) * (1 + scv) / 2;
        return withWait(lambda, mu, rho, wait, erlangC);
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

    /**
     * Round robin over n identical nodes: node i gets every n-th arrival of a Poisson stream of rate λ, so
     * its inter-arrival time is Erlang-n (n phases of rate λ, mean n/λ, c_a² = 1/n) and each node is an
     * E_n/G/1 queue of utilisation ρ = λ/(nμ). Returns the per-node times and the cluster-wide N.
     * With exponential service this is E_n/M/1, solved exactly ({@link #enm1Sigma}); otherwise see
     * {@link #roundRobinWait}.
     */
    public static QueueModel.Prediction roundRobin(double lambda, double mu, int n, double scv) {
        double rho = lambda / (n * mu);
        if (rho >= 1) {
            return unstable(rho);
        }
        if (lambda == 0) {
            return withWait(0, mu, 0, 0, 0);
        }
        double pWait = scv == EXPONENTIAL_SCV ? enm1Sigma(lambda, mu, n) : Double.NaN;
        return withWait(lambda, mu, rho, roundRobinWait(lambda, mu, n, scv), pWait);
    }

    /**
     * The E_n/M/1 (GI/M/1) root: σ in (0, 1) with σ = A*(μ(1 − σ)), where A*(s) = (λ/(λ + s))^n is the
     * Laplace-Stieltjes transform of the Erlang-n inter-arrival time (Kleinrock, <i>Queueing Systems</i>
     * vol. 1, 1975, §6.4). σ is the probability that an arrival waits; Wq = σ/(μ(1 − σ)),
     * R = 1/(μ(1 − σ)). n = 1 gives σ = ρ, M/M/1; n = 2 has the closed form σ = (1 + 4ρ − √(1 + 8ρ))/2.
     * g(σ) = A*(μ(1 − σ)) − σ is convex with g(0) > 0, g(1) = 0 and g'(1) = 1/ρ − 1 > 0, so it has one root
     * in (0, 1), found by bisection: positive below the root, negative between it and 1.
     */
    public static double enm1Sigma(double lambda, double mu, int n) {
        double lo = 0;
        double hi = 1;
        for (int i = 0; i < 200 && hi - lo > 1e-15; i++) {
            double mid = (lo + hi) / 2;
            double transform = Math.exp(-n * Math.log1p(mu * (1 - mid) / lambda));
            if (transform - mid > 0) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return (lo + hi) / 2;
    }

    /**
     * Mean wait of one round-robin node, E_n/G/1, with c_a² = 1/n. The Krämer-Langenbach-Belz (KLB)
     * approximation (Krämer &amp; Langenbach-Belz 1976; Whitt, "Approximations for the GI/G/m queue", 1993,
     * eq. 2.24) for c_a² ≤ 1 is W_KLB = ρ/(1 − ρ)·(c_a² + c_s²)/2·g/μ with
     * g = exp(−2(1 − ρ)(1 − c_a²)²/(3ρ(c_a² + c_s²))). It underestimates E_n/M/1 badly at low load (g → 0), so:
     * <ul>
     * <li>c_s² = 1: the exact E_n/M/1 wait σ/(μ(1 − σ));
     * <li>c_s² &lt; 1: the exact E_n/M/1 wait times W_KLB(c_s²)/W_KLB(1), a ratio below 1 whatever the load;
     *     for constant service it reproduces the simulator's round robin (= M/D/n) knees;
     * <li>c_s² &gt; 1: the larger of W_KLB(c_s²) and the exact E_n/M/1 wait times the Allen-Cunneen ratio
     *     (c_a² + c_s²)/(c_a² + 1). KLB alone follows the simulator within a few per cent for bounded Pareto
     *     service (bounded Pareto, c_s² = 19: within 3 % at ρ = 0.1-0.9); the Allen-Cunneen term keeps it from
     *     falling below the exponential case. Just above c_s² = 1 the response time can be up to 3.3 % above
     *     the exact E_n/M/1 (KLB's own error, largest at n = 2, ρ ≈ 0.5). (Anchoring on the KLB ratio here
     *     would divide by g(1), which vanishes at low load: the wait would grow without bound as ρ → 0.)
     * </ul>
     */
    public static double roundRobinWait(double lambda, double mu, int n, double scv) {
        double sigma = enm1Sigma(lambda, mu, n);
        double exact = sigma / (mu * (1 - sigma));
        if (scv == EXPONENTIAL_SCV) {
            return exact;
        }
        double rho = lambda / (n * mu);
        double ca2 = 1.0 / n;
        if (scv < EXPONENTIAL_SCV) {
            return exact * klbRatio(rho, ca2, scv);
        }
        double klb = rho / (1 - rho) * klbFactor(rho, ca2, scv) / mu;
        return Math.max(klb, exact * (ca2 + scv) / (ca2 + 1));
    }

    /** W_KLB(c_s²)/W_KLB(1) for c_s² &lt; 1, computed without dividing by the vanishing g(1). */
    static double klbRatio(double rho, double ca2, double cs2) {
        if (ca2 + cs2 == 0) {
            return 0; // D/D/1: nobody waits
        }
        double a = 2 * (1 - rho) * (1 - ca2) * (1 - ca2) / (3 * rho);
        return (ca2 + cs2) / (ca2 + 1) * Math.exp(-a / (ca2 + cs2) + a / (ca2 + 1));
    }

    /** (c_a² + c_s²)/2 · g of the Krämer-Langenbach-Belz formula, for c_a² ≤ 1. */
    static double klbFactor(double rho, double ca2, double cs2) {
        if (ca2 + cs2 == 0) {
            return 0; // D/D/1: nobody waits
        }
        double g = Math.exp(-2 * (1 - rho) * (1 - ca2) * (1 - ca2) / (3 * rho * (ca2 + cs2)));
        return (ca2 + cs2) / 2 * g;
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

    static void checkScv(double scv) {
        if (!(scv >= 0) || Double.isInfinite(scv)) {
            throw new IllegalArgumentException(
                    "service-time squared coefficient of variation must be >= 0 (0 constant, 1 exponential), got " + scv);
        }
    }

    /** Response = wait + 1/μ; N by Little's law over the whole system. */
    private static QueueModel.Prediction withWait(double lambda, double mu, double rho, double wait, double pWait) {
        double response = wait + 1 / mu;
        return new QueueModel.Prediction(rho, response, wait, lambda * response, pWait);
    }

    private static QueueModel.Prediction unstable(double rho) {
        double inf = Double.POSITIVE_INFINITY;
        return new QueueModel.Prediction(rho, inf, inf, inf, 1);
    }
}
