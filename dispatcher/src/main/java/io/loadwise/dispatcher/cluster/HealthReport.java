package io.loadwise.dispatcher.cluster;

/**
 * A node's active health state and its latest check, as the API shows them. Immutable; the checker
 * publishes a new one after each check.
 *
 * @param checked whether the node has an active health check at all
 * @param lastCheck the latest check, {@code null} before the first one ends
 */
public record HealthReport(boolean checked, HealthState state, CheckResult lastCheck) {

    /** A node without active health checks. */
    public static final HealthReport NOT_CHECKED = new HealthReport(false, HealthState.UNKNOWN, null);

    /**
     * One check.
     *
     * @param epochMillis when it ended, wall clock
     * @param ok whether it passed
     * @param status the HTTP status the node answered, 0 when there was none (TCP check, or no answer)
     * @param durationMillis from the start of the connect to the verdict
     * @param problem why it failed ("connection refused", "status 500 not in 200-399"), {@code null} when it passed
     */
    public record CheckResult(long epochMillis, boolean ok, int status, long durationMillis, String problem) {
    }
}
