package io.loadwise.dispatcher.cluster;

import io.loadwise.dispatcher.config.DrainMode;
import io.loadwise.policy.AgentSample;

/**
 * A node's drain: its mode, since when, and the session drain under way. Written by the cluster (under its
 * lock), read by every event loop.
 */
final class NodeDrain {

    /** {@link DrainMode#NONE} unless draining. */
    private volatile DrainMode mode = DrainMode.NONE;
    /** Wall clock when the current drain mode began, for display. */
    private volatile long startedMillis;
    /** The session drain under way ({@link DrainMode#SESSIONS}), else {@code null}. */
    private volatile SessionDrain sessions;

    DrainMode mode() {
        return mode;
    }

    /**
     * Starts, switches or ends a drain. A drain already in {@code next} goes on unchanged (its clock, deadline
     * and idle time stay); a switch to {@link DrainMode#SESSIONS} starts a new wait.
     *
     * @param deadlineMs session drain: how long it may last at most, 0 for no deadline
     * @param sessionIdleMs session drain: without the agent's session count, how long no pinned request must
     *     arrive before the node counts as drained (at least 1)
     * @return the mode before
     */
    DrainMode set(DrainMode next, long deadlineMs, long sessionIdleMs, long nowNanos) {
        DrainMode before = mode;
        if (next == before) {
            return before;
        }
        long nowMillis = System.currentTimeMillis();
        sessions = next == DrainMode.SESSIONS ? new SessionDrain(nowNanos, nowMillis, deadlineMs, sessionIdleMs) : null;
        startedMillis = nowMillis;
        mode = next;
        return before;
    }

    /** Takes over another node's drain as it stands (the same node in a rebuilt cluster, {@link NodeHandover}). */
    void adopt(NodeDrain from) {
        sessions = from.sessions;
        startedMillis = from.startedMillis;
        mode = from.mode;
    }

    /**
     * How the drain stands, or {@code null} when not draining. An immediate drain is drained when the node is
     * idle; a session drain when its wait has ended ({@link SessionDrain}) and the node is idle, or it says its
     * deadline passed.
     */
    DrainProgress progress(long nowNanos, AgentSample sample, boolean idle, int inFlight) {
        DrainMode m = mode;
        if (m == DrainMode.NONE) {
            return null;
        }
        SessionDrain s = sessions;
        if (m == DrainMode.IMMEDIATE || s == null) {
            return new DrainProgress(DrainMode.IMMEDIATE, idle ? DrainState.DRAINED : DrainState.DRAINING,
                    startedMillis, 0, 0, SessionDrain.sessionsLeft(sample), 0, inFlight);
        }
        DrainState state = s.state(nowNanos, sample);
        if (state == DrainState.DRAINED && !idle) {
            state = DrainState.DRAINING;
        }
        return new DrainProgress(m, state, s.startedAtMillis(), s.deadlineAtMillis(), s.sessionIdleMs(),
                SessionDrain.sessionsLeft(sample), s.pinnedLastMinute(nowNanos), inFlight);
    }

    /** Whether a session drain lets a pinned request through now; the request counts as one that arrived. */
    boolean admitsPinned(long nowNanos, AgentSample sample) {
        SessionDrain s = sessions;
        return s != null && s.admitPinned(nowNanos, sample);
    }
}
