package io.loadwise.dispatcher.control;

/**
 * A node's active health check, as the admin side sees it.
 *
 * @param checked whether the node has an active health check at all
 * @param state {@code up}, {@code down} or {@code unknown} (no check has concluded yet, or none runs); only
 *     {@code down} takes the node out of selection
 * @param lastCheck the latest check, {@code null} before the first one ends
 */
public record HealthStatus(boolean checked, String state, LastCheck lastCheck) {

    /** A node without active health checks. */
    public static final HealthStatus NOT_CHECKED = new HealthStatus(false, "unknown", null);

    /**
     * One check.
     *
     * @param epochMillis when it ended, wall clock
     * @param status the HTTP status the node answered, 0 when there was none (TCP check, or no answer)
     * @param durationMillis from the start of the connect to the verdict
     * @param problem why it failed, {@code null} when it passed
     */
    public record LastCheck(long epochMillis, boolean ok, int status, long durationMillis, String problem) {
    }
}
