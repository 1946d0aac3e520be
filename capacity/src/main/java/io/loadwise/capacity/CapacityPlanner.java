package io.loadwise.capacity;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * Answers "how many nodes, at what load" from the queueing models: per node count, the operating point
 * at 80 % utilisation (seed 003's rule), the ≈ 90 % limit beyond which the seeds found the models stop
 * tracking reality, a table over the requested arrival rates, and a what-if for one node more or less.
 */
public final class CapacityPlanner {

    /** Seed 003: "an operating level of 80 % of maximum" as reasonable over-capacity. */
    public static final double OPERATING_UTILISATION = 0.80;
    /** Seeds 000/003: measurements follow M/M/n "up to the point of about 90 % saturation". */
    public static final double VALIDITY_LIMIT = 0.90;

    private final double mu;

    /** @param mu service rate of one node, requests/s */
    public CapacityPlanner(double mu) {
        if (!(mu > 0) || Double.isInfinite(mu)) {
            throw new IllegalArgumentException("service rate must be a positive number, got " + mu);
        }
        this.mu = mu;
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
        out.printf(Locale.ROOT, "Service rate μ = %.2f req/s per node (mean service time 1/μ = %.3f ms)%n", mu, 1e3 / mu);
        for (int n : servers) {
            printForServers(n, lambdas.isEmpty() ? defaultRates(n) : lambdas, out);
        }
        if (!lambdas.isEmpty()) {
            for (double lambda : lambdas.size() > 3 ? List.of(lambdas.get(lambdas.size() - 1)) : lambdas) {
                printWhatIf(servers.get(servers.size() - 1), lambda, out);
            }
        }
        out.println();
        out.println("R = mean response time, N = mean number in system, P(wait) = Erlang C probability of queueing.");
        out.println("M/M/1: one node takes all traffic. (M/M/1)^n: n separate queues, λ/n each (random split).");
        out.println("M/M/n: one queue feeding n nodes (≈ least-connections / least-work-left dispatch).");
        out.println("Seeds 000/003 measured response times below M/M/n up to ≈ 90 % utilisation (deterministic service),");
        out.println("and thrashing beyond it: treat rows marked '> 90 %' as optimistic.");
    }

    private void printForServers(int n, List<Double> lambdas, PrintStream out) {
        out.printf(Locale.ROOT, "%n%d node%s: capacity n·μ = %.2f req/s%n", n, n == 1 ? "" : "s", n * mu);
        double at80 = rateAt(n, OPERATING_UTILISATION);
        out.printf(Locale.ROOT, "  80 %% utilisation (operating rule): M/M/1 at λ = %.2f req/s (R %s ms); "
                + "(M/M/1)^n and M/M/n at λ = %.2f req/s (R %s / %s ms)%n",
                rateAt(1, OPERATING_UTILISATION), ms(QueueModel.MM1.predict(rateAt(1, OPERATING_UTILISATION), mu, 1)),
                at80, ms(QueueModel.MM1_N.predict(at80, mu, n)), ms(QueueModel.MMN.predict(at80, mu, n)));
        out.printf(Locale.ROOT, "  models stop being valid (≈ 90 %%): M/M/1 beyond λ = %.2f req/s, "
                + "(M/M/1)^n and M/M/n beyond λ = %.2f req/s%n", rateAt(1, VALIDITY_LIMIT), rateAt(n, VALIDITY_LIMIT));
        out.printf(Locale.ROOT, "  %10s %7s | %10s %8s | %10s %8s | %10s %8s %7s | %s%n", "λ req/s", "ρ", "M/M/1 R", "N",
                "(M/M/1)^n R", "N", "M/M/n R", "N", "P(wait)", "note");
        for (double lambda : lambdas) {
            QueueModel.Prediction one = QueueModel.MM1.predict(lambda, mu, 1);
            QueueModel.Prediction split = QueueModel.MM1_N.predict(lambda, mu, n);
            QueueModel.Prediction pooled = QueueModel.MMN.predict(lambda, mu, n);
            double rho = pooled.utilisation();
            String note = rho >= 1 ? "overloaded: no steady state"
                    : rho > VALIDITY_LIMIT ? "> 90 %: beyond model validity"
                    : rho > OPERATING_UTILISATION ? "> 80 %: above operating rule" : "";
            out.printf(Locale.ROOT, "  %10.2f %7.3f | %10s %8s | %10s %8s | %10s %8s %7s | %s%n", lambda, rho,
                    ms(one), count(one), ms(split), count(split), ms(pooled), count(pooled),
                    pooled.stable() ? String.format(Locale.ROOT, "%.3f", pooled.probabilityOfWaiting()) : "-", note);
        }
    }

    private void printWhatIf(int n, double lambda, PrintStream out) {
        out.printf(Locale.ROOT, "%nWhat if, at λ = %.2f req/s (needs %d node%s to stay at or below 80 %%):%n", lambda,
                nodesNeeded(lambda, OPERATING_UTILISATION), nodesNeeded(lambda, OPERATING_UTILISATION) == 1 ? "" : "s");
        out.printf(Locale.ROOT, "  %6s %7s | %10s | %12s%n", "nodes", "ρ", "M/M/n R", "(M/M/1)^n R");
        for (int k = Math.max(1, n - 1); k <= n + 1; k++) {
            QueueModel.Prediction pooled = QueueModel.MMN.predict(lambda, mu, k);
            out.printf(Locale.ROOT, "  %6s %7.3f | %10s | %12s%n", k == n ? k + "*" : k - n > 0 ? k + " (+1)" : k + " (-1)",
                    pooled.utilisation(), ms(pooled), ms(QueueModel.MM1_N.predict(lambda, mu, k)));
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
