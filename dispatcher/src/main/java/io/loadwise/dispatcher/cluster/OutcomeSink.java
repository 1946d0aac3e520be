package io.loadwise.dispatcher.cluster;

/**
 * Where the HTTP exchange reports how each request to a node ended, for passive outlier detection
 * ({@code outlier.OutlierDetector}). Called on event loops once per response or failure: implementations
 * must be cheap, lock-free and allocation-free in the common case.
 */
public interface OutcomeSink {

    /** A cluster without outlier detection: reports go nowhere. */
    OutcomeSink NONE = new OutcomeSink() {
        @Override
        public void onResponse(NodeState node, int status) {
        }

        @Override
        public void onFailedAnswer(NodeState node) {
        }

        @Override
        public void onGatewayFailure(NodeState node) {
        }
    };

    /** The node answered with this final status (100-599). */
    void onResponse(NodeState node, int status);

    /**
     * The node answered below 500 with what counts as its failure ({@link FailedAnswers}: a 404 on a path other
     * nodes serve): a 5xx for outlier detection, not a gateway failure. Reported instead of {@link #onResponse}.
     */
    void onFailedAnswer(NodeState node);

    /**
     * The exchange with the node failed before or instead of a complete answer: the connect failed, the
     * node reset or closed the connection, sent an unreadable response, or did not answer in time.
     */
    void onGatewayFailure(NodeState node);
}
