package io.loadwise.bench.chaos;

/**
 * One request of the load: when it was sent (ns since the load began), its status ({@code -1} when there
 * was none), the node that answered (the body of a 200, {@code null} otherwise) and, for a failure, its cause:
 * {@code HTTP 502}, {@code connection reset}, {@code client timeout}, ...
 */
record Outcome(long startNanos, int status, String node, String cause) {

    static Outcome answered(long startNanos, int status, String body) {
        return status == 200 ? new Outcome(startNanos, 200, body, null)
                : new Outcome(startNanos, status, null, "HTTP " + status);
    }

    static Outcome failed(long startNanos, String cause) {
        return new Outcome(startNanos, -1, null, cause);
    }

    boolean ok() {
        return cause == null;
    }
}
