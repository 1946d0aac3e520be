package io.loadwise.dispatcher.control;

import io.loadwise.dispatcher.config.DrainMode;

/**
 * How one node's drain stands, read with its {@link NodeStatus}.
 *
 * @param mode {@code IMMEDIATE} ({@code "drain": true}) or {@code SESSIONS}
 * @param state {@code draining}, {@code drained}, or {@code deadline-passed} (a session drain's deadline came
 *     first: the node drains as {@code true} from then on, and the sessions left are lost)
 * @param startedAtMillis wall clock when this mode began (epoch ms)
 * @param deadlineAtMillis the session drain's deadline (epoch ms), 0 without one
 * @param sessionIdleMs session drain: without the agent's session count, how long no pinned request must arrive
 * @param sessionsLeft active sessions its agent reports now ({@code AMX_SESSIONS_ACT}), -1 when unknown
 * @param pinnedLastMinute pinned requests that reached it during the last minute (session drain, else 0)
 * @param inFlightRequests requests sent to it and not yet answered
 */
public record DrainStatus(DrainMode mode, String state, long startedAtMillis, long deadlineAtMillis,
        long sessionIdleMs, int sessionsLeft, int pinnedLastMinute, int inFlightRequests) {

    public static final String DRAINING = "draining";
    public static final String DRAINED = "drained";
    public static final String DEADLINE_PASSED = "deadline-passed";
}
