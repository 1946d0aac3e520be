package io.loadwise.capacity;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * Answers "how many nodes, at what load" from the queueing models: per node count, the operating point
 * at 80 % utilisation (seed 003's rule), the ≈ 90 % limit beyond which the seeds found the models stop
 * tracking reality, a table over the requested arrival rates (M/M/1, (M/M/1)^n, round robin, M/M/n, or
 * their M/G forms for a given service variability), and a what-if for one node more or less.
 */
public final class CapacityPlanner {

    /** Seed 003: "an operating level of 80 % of maximum" as reasonable over-capacity. */
    public static final double OPERATING_UTILISATION = 0.80;
    /** Seeds 000/003: measurements follow M/M/n "up to the point of about 90 % saturation". */
    public static final double VALIDITY_LIMIT = 0.90;
    /**
     * How much slower least connections is than M/M/n, measured with the simulator (exponential service,
     * 300 000 requests per point, n = 2-8, least connections against the oracle that tracks M/M/n on the
     * same sample path): 4-14 % at ρ = 0.5-0.9, 0-4 % at ρ = 0.3, 2-11 % at 0.95. Joining the shortest of n
     * separate FCFS queues is not one shared queue. See docs/capacity-planning.md.
     */
    public static final String LEAST_CONNECTIONS_CAVEAT = "least connections measured 4-14 % slower than M/M/n "
            + "at ρ 0.5-0.9 in the simulator (n = 2-8, exponential service): M/M/n is optimistic for it.";

    private final double mu;
    private final double scv;

    /** @param mu service rate of one node, requests/s; exponential service */
    public CapacityPlanner(double mu) {
        this(mu, QueueingFormulas.EXPONENTIAL_SCV);
    }

    /**
     * @param mu service rate of one node, requests/s
     * @param scv squared coefficient of variation of the service time (0 constant, 1 exponential)
     */
    public CapacityPlanner(double mu, double scv) {
        if (!(mu > 0) || Double.isInfinite(mu)) {
            throw new IllegalArgumentException("service rate must be a positive number, got " + mu);
        }
        QueueingFormulas.checkScv(scv);
        this.mu = mu;
        this.scv = scv;
    }

    public double mu() {
        return mu;
    }

    /** Smallest node count that keeps utilisation at or below {@code utilisation} at rate {@code lambda}. */
    public int nodesNeeded(double lambda, double utilisation) {
        return Math.max(1, (int) Math.ceil(lambda / (utilisation * mu) - 1e-12));
    }

    /** Arrival rate at which {@code servers} nodes reach {@code utilisation}. */
    public double rateAt(int servers, double utilisation) {
        return utilisation * servers * mu;
    }

    public void printPlan(List<Integer> servers, List<Double> lambdas, PrintStream out) {
        out.printf(Locale.ROOT, "Service rate μ = %.2f req/s per node (mean service time 1/μ = %.3f ms); %s%n", mu, 1e3 / mu,
                serviceDescription());
        for (int n : servers) {
            printForServers(n, lambdas.isEmpty() ? defaultRates(n) : lambdas, out);
        }
        if (!lambdas.isEmpty()) {
            for (double lambda : lambdas.size() > 3 ? List.of(lambdas.get(lambdas.size() - 1)) : lambdas) {
                printWhatIf(servers.get(servers.size() - 1), lambda, out);
            }
        }
        out.println();
        out.println("R = mean response time, N = mean number in system, P(wait) = probability of queueing in "
                + label(QueueModel.MMN) + ".");
        out.println(label(QueueModel.MM1) + ": one node takes all traffic. " + label(QueueModel.MM1_N)
                + ": n separate queues, λ/n each (random split).");
        out.println("RR " + label(QueueModel.ROUND_ROBIN) + ": round robin, each node gets every n-th arrival "
                + "(Erlang-n gaps)" + (scv == QueueingFormulas.EXPONENTIAL_SCV ? "; exact."
                : "; Krämer-Langenbach-Belz approximation anchored on exact E_n/M/1."));
        out.println(label(QueueModel.MMN) + ": one queue feeding n nodes (the simulator's oracle least-work-left)"
                + (scv == QueueingFormulas.EXPONENTIAL_SCV || servers.stream().allMatch(n -> n == 1) ? "."
                : "; Lee-Longton approximation Wq(M/M/n)·(1 + c_s²)/2."));
        out.println("Caveat: " + LEAST_CONNECTIONS_CAVEAT);
        out.println("Seeds 000/003 measured response times below M/M/n up to ≈ 90 % utilisation (deterministic service),");
        out.println("and thrashing beyond it: treat rows marked '> 90 %' as optimistic.");
    }

    private String serviceDescription() {
        return scv == QueueingFormulas.EXPONENTIAL_SCV ? "exponential service (c_s² = 1)"
                : scv == 0 ? "constant service (c_s² = 0)"
                : String.format(Locale.ROOT, "general service, c_s² = %.3g", scv);
    }

    private String label(QueueModel model) {
        return model.label(scv);
    }

    private QueueModel.Prediction predict(QueueModel model, double lambda, int n) {
        return model.predict(lambda, mu, n, scv);
    }

    private void printForServers(int n, List<Double> lambdas, PrintStream out) {
        out.printf(Locale.ROOT, "%n%d node%s: capacity n·μ = %.2f req/s%n", n, n == 1 ? "" : "s", n * mu);
        double at80 = rateAt(n, OPERATING_UTILISATION);
        out.printf(Locale.ROOT, "  80 %% utilisation (operating rule): %s at λ = %.2f req/s (R %s ms); "
                + "%s, RR and %s at λ = %.2f req/s (R %s / %s / %s ms)%n",
                label(QueueModel.MM1), rateAt(1, OPERATING_UTILISATION),
                ms(predict(QueueModel.MM1, rateAt(1, OPERATING_UTILISATION), 1)), label(QueueModel.MM1_N),
                label(QueueModel.MMN), at80, ms(predict(QueueModel.MM1_N, at80, n)),
                ms(predict(QueueModel.ROUND_ROBIN, at80, n)), ms(predict(QueueModel.MMN, at80, n)));
        out.printf(Locale.ROOT, "  models stop being valid (≈ 90 %%): %s beyond λ = %.2f req/s, "
                + "the n-node models beyond λ = %.2f req/s%n", label(QueueModel.MM1), rateAt(1, VALIDITY_LIMIT),
                rateAt(n, VALIDITY_LIMIT));
        out.printf(Locale.ROOT, "  %10s %7s | %10s %8s | %11s %8s | %11s | %10s %8s %7s | %s%n", "λ req/s", "ρ",
                label(QueueModel.MM1) + " R", "N", label(QueueModel.MM1_N) + " R", "N", "RR " + label(QueueModel.ROUND_ROBIN),
                label(QueueModel.MMN) + " R", "N", "P(wait)", "note");
        for (double lambda : lambdas) {
            QueueModel.Prediction one = predict(QueueModel.MM1, lambda, 1);
            QueueModel.Prediction split = predict(QueueModel.MM1_N, lambda, n);
            QueueModel.Prediction roundRobin = predict(QueueModel.ROUND_ROBIN, lambda, n);
            QueueModel.Prediction pooled = predict(QueueModel.MMN, lambda, n);
            double rho = pooled.utilisation();
            String note = rho >= 1 ? "overloaded: no steady state"
                    : rho > VALIDITY_LIMIT ? "> 90 %: beyond model validity"
                    : rho > OPERATING_UTILISATION ? "> 80 %: above operating rule" : "";
            out.printf(Locale.ROOT, "  %10.2f %7.3f | %10s %8s | %11s %8s | %11s | %10s %8s %7s | %s%n", lambda, rho,
                    ms(one), count(one), ms(split), count(split), ms(roundRobin), ms(pooled), count(pooled),
                    pooled.stable() ? String.format(Locale.ROOT, "%.3f", pooled.probabilityOfWaiting()) : "-", note);
        }
    }

    private void printWhatIf(int n, double lambda, PrintStream out) {
        out.printf(Locale.ROOT, "%nWhat if, at λ = %.2f req/s (needs %d node%s to stay at or below 80 %%):%n", lambda,
                nodesNeeded(lambda, OPERATING_UTILISATION), nodesNeeded(lambda, OPERATING_UTILISATION) == 1 ? "" : "s");
        out.printf(Locale.ROOT, "  %6s %7s | %10s | %12s | %12s%n", "nodes", "ρ", label(QueueModel.MMN) + " R",
                "RR R", label(QueueModel.MM1_N) + " R");
        for (int k = Math.max(1, n - 1); k <= n + 1; k++) {
            QueueModel.Prediction pooled = predict(QueueModel.MMN, lambda, k);
            out.printf(Locale.ROOT, "  %6s %7.3f | %10s | %12s | %12s%n", k == n ? k + "*" : k - n > 0 ? k + " (+1)" : k + " (-1)",
                    pooled.utilisation(), ms(pooled), ms(predict(QueueModel.ROUND_ROBIN, lambda, k)),
                    ms(predict(QueueModel.MM1_N, lambda, k)));
        }
    }

    private List<Double> defaultRates(int n) {
        double[] rhos = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95};
        Double[] rates = new Double[rhos.length];
        for (int i = 0; i < rhos.length; i++) {
            rates[i] = rhos[i] * n * mu;
        }
        return List.of(rates);
    }

    private static String ms(QueueModel.Prediction p) {
        return p.stable() ? String.format(Locale.ROOT, "%.2f", p.meanResponseSeconds() * 1e3) : "∞";
    }

    private static String count(QueueModel.Prediction p) {
        return p.stable() ? String.format(Locale.ROOT, "%.3f", p.meanInSystem()) : "∞";
    }
}
