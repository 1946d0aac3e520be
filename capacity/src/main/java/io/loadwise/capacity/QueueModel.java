package io.loadwise.capacity;

/**
 * The three queueing models of seed 000 chapter 2 / seed 003, for {@code servers} nodes of service rate
 * μ each receiving a total Poisson arrival rate λ.
 */
public enum QueueModel {

    /** One node takes all the traffic: R = 1/(μ − λ). */
    MM1("M/M/1"),
    /** n separate queues, λ/n each (random split): R = 1/(μ − λ/n). */
    MM1_N("(M/M/1)^n"),
    /** One queue feeding n servers (Erlang C): R = (1/μ)(1 + C/(n(1 − ρ))). */
    MMN("M/M/n");

    private final String label;

    QueueModel(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** Prediction at total arrival rate {@code lambda} (req/s) for {@code servers} nodes of rate {@code mu}. */
    public Prediction predict(double lambda, double mu, int servers) {
        QueueingFormulas.check(lambda, mu, servers);
        return switch (this) {
            case MM1 -> QueueingFormulas.mm1(lambda, mu);
            case MM1_N -> {
                Prediction one = QueueingFormulas.mm1(lambda / servers, mu);
                yield new Prediction(one.utilisation(), one.meanResponseSeconds(), one.meanWaitSeconds(),
                        one.meanInSystem() * servers, one.probabilityOfWaiting());
            }
            case MMN -> QueueingFormulas.mmc(lambda, mu, servers);
        };
    }

    /**
     * Per-model prediction; when the model is unstable (ρ ≥ 1) times and counts are infinite.
     *
     * @param utilisation ρ, busy fraction of each server
     * @param probabilityOfWaiting chance an arrival has to queue (Erlang C for M/M/n, ρ for M/M/1)
     */
    public record Prediction(double utilisation, double meanResponseSeconds, double meanWaitSeconds,
            double meanInSystem, double probabilityOfWaiting) {

        public boolean stable() {
            return utilisation < 1;
        }
    }
}
