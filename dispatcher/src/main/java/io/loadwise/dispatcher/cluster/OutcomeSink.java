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
        public void onGatewayFailure(NodeState node) {
        }
    };

    /** The node answered with this final status (100-599). */
    void onResponse(NodeState node, int status);

    /**
     * The exchange with the node failed before or instead of a complete answer: the connect failed, the
     * node reset or closed the connection, sent an unreadable response, or did not answer in time.
     */
    void onGatewayFailure(NodeState node);
}
