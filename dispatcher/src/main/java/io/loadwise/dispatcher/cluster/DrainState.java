package io.loadwise.dispatcher.cluster;

/** Where a node's drain stands ({@link NodeState#drainProgress()}). */
public enum DrainState {
    /** Still finishing: requests in flight, or (session drain) sessions left and pinned requests arriving. */
    DRAINING("draining"),
    /** Nothing left: no request in flight and, for a session drain, no session (or no pinned request lately). */
    DRAINED("drained"),
    /** A session drain's deadline passed first: the node now drains as {@code true} and sessions left are lost. */
    DEADLINE_PASSED("deadline-passed");

    private final String id;

    DrainState(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }
}
