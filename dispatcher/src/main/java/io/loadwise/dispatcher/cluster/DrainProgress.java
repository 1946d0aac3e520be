package io.loadwise.dispatcher.cluster;

import io.loadwise.dispatcher.config.DrainMode;

/**
 * One node's drain as it stands, for the API, the console and Prometheus.
 *
 * @param mode {@code IMMEDIATE} or {@code SESSIONS}
 * @param state draining, drained, or (session drain only) its deadline passed
 * @param startedAtMillis wall clock when this mode began (epoch ms)
 * @param deadlineAtMillis wall clock of the session drain's deadline (epoch ms), 0 without one
 * @param sessionIdleMs without the agent's session count, how long no pinned request must arrive (session drain)
 * @param sessionsLeft active sessions its agent reports now, -1 when unknown (no fresh sample with
 *     {@code AMX_SESSIONS_ACT})
 * @param pinnedLastMinute pinned requests that arrived during the last minute (session drain; 0 otherwise)
 * @param inFlightRequests requests sent to it and not yet answered
 */
public record DrainProgress(DrainMode mode, DrainState state, long startedAtMillis, long deadlineAtMillis,
        long sessionIdleMs, int sessionsLeft, int pinnedLastMinute, int inFlightRequests) {
}
