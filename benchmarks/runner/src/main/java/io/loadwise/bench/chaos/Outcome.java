package io.loadwise.bench.chaos;

/**
 * One request of the load: its number (the {@code i} of {@code GET /work?i=N}, which finds its line in the
 * dispatcher's access log), when it was sent (ns since the load began), its status ({@code -1} when there
 * was none), the node that answered (the body of a 200, {@code null} otherwise) and, for a failure, its cause:
 * {@code HTTP 502}, {@code connection reset}, {@code client timeout}, ...
 */
record Outcome(long id, long startNanos, int status, String node, String cause) {

    static Outcome answered(long id, long startNanos, int status, String body) {
        return status == 200 ? new Outcome(id, startNanos, 200, body, null)
                : new Outcome(id, startNanos, status, null, "HTTP " + status);
    }

    static Outcome failed(long id, long startNanos, String cause) {
        return new Outcome(id, startNanos, -1, null, cause);
    }

    boolean ok() {
        return cause == null;
    }
}
