package io.loadwise.dispatcher.cluster;

import java.util.Locale;

/** What the active health check says of a node. Only {@link #DOWN} takes it out of selection. */
public enum HealthState {
    /** No check has concluded yet (or the cluster has none): the node stays in selection. */
    UNKNOWN,
    /** The last {@code rise} checks passed (or the first one did). */
    UP,
    /** The last {@code fall} checks failed, and fewer than {@code rise} have passed since. */
    DOWN;

    /** The lower-case name used by the API and the console. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
