package io.loadwise.capacity;

/**
 * The planner's queueing models, for {@code servers} nodes of service rate μ each receiving a total Poisson
 * arrival rate λ: the three of seed 000 chapter 2 / seed 003, and round robin. Each takes the service
 * time's squared coefficient of variation c_s² (1 = exponential, the seeds' assumption; 0 = constant, as
 * seed 000's CPU-bound blades were), which turns M/M into M/G; see {@link QueueingFormulas} for which
 * results are exact and which approximate.
 */
public enum QueueModel {

    /** One node takes all the traffic: R = 1/(μ − λ). */
    MM1("M/M/1"),
    /** n separate queues, λ/n each (random split): R = 1/(μ − λ/n). */
    MM1_N("(M/M/1)^n"),
    /** One queue feeding n servers (Erlang C): R = (1/μ)(1 + C/(n(1 − ρ))). */
    MMN("M/M/n"),
    /**
     * Round robin: each node gets every n-th arrival, Erlang-n inter-arrival times, E_n/M/1 per node.
     * Between M/M/n (one queue) and (M/M/1)^n (random split).
     */
    ROUND_ROBIN("E_n/M/1");

    private final String label;

    QueueModel(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** The label with the service distribution the c_s² stands for: M/M/n, M/D/n or M/G/n. */
    public String label(double scv) {
        String service = scv == QueueingFormulas.EXPONENTIAL_SCV ? "/M/" : scv == 0 ? "/D/" : "/G/";
        return label.replace("/M/", service);
    }

    /** Prediction with exponential service at total arrival rate {@code lambda} (req/s) for {@code servers} nodes of rate {@code mu}. */
    public Prediction predict(double lambda, double mu, int servers) {
        return predict(lambda, mu, servers, QueueingFormulas.EXPONENTIAL_SCV);
    }

    /** Prediction for service times of squared coefficient of variation {@code scv} and mean 1/μ. */
    public Prediction predict(double lambda, double mu, int servers, double scv) {
        QueueingFormulas.check(lambda, mu, servers);
        QueueingFormulas.checkScv(scv);
        return switch (this) {
            case MM1 -> QueueingFormulas.mg1(lambda, mu, scv);
            case MM1_N -> {
                Prediction one = QueueingFormulas.mg1(lambda / servers, mu, scv);
                yield new Prediction(one.utilisation(), one.meanResponseSeconds(), one.meanWaitSeconds(),
                        one.meanInSystem() * servers, one.probabilityOfWaiting());
            }
            case MMN -> QueueingFormulas.mgc(lambda, mu, servers, scv);
            case ROUND_ROBIN -> QueueingFormulas.roundRobin(lambda, mu, servers, scv);
        };
    }

    /**
     * Per-model prediction; when the model is unstable (ρ ≥ 1) times and counts are infinite.
     *
     * @param utilisation ρ, busy fraction of each server
     * @param probabilityOfWaiting chance an arrival has to queue (Erlang C for M/M/n, ρ for M/M/1, σ for
     *     E_n/M/1); NaN where the model has no value for it (round robin with non-exponential service)
     */
    public record Prediction(double utilisation, double meanResponseSeconds, double meanWaitSeconds,
            double meanInSystem, double probabilityOfWaiting) {

        public boolean stable() {
            return utilisation < 1;
        }
    }
}
