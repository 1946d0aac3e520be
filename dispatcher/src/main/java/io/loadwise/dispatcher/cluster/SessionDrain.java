package io.loadwise.dispatcher.cluster;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.PolicyMetric;

/**
 * One {@code "drain": "sessions"} of one node, from the moment it began: whether a pinned request may still go
 * to the node, and when the wait ends. It ends ({@link DrainState#DRAINED}) when the node's agent reports no
 * active session ({@code AMX_SESSIONS_ACT} 0) or, while no fresh agent sample says how many are left, when no
 * pinned request has arrived for {@code sessionIdleMs}; or ({@link DrainState#DEADLINE_PASSED}) when its deadline
 * comes first. The end is latched: after it the node drains as {@code true}.
 *
 * <p>Asked by event loops (each pinned request, {@link #admitPinned}) and by status reads; every field is final,
 * volatile or atomic.
 */
final class SessionDrain {

    private final long startNanos;
    private final long startedAtMillis;
    /** 0: no deadline. */
    private final long deadlineMs;
    private final long sessionIdleMs;
    private final PinnedWindow pinned = new PinnedWindow();
    /** The latest pinned request, or the start; nanoClock. */
    private volatile long lastPinnedNanos;
    /** {@code null} while the wait goes on, then why it ended. */
    private volatile DrainState ended;

    SessionDrain(long startNanos, long startedAtMillis, long deadlineMs, long sessionIdleMs) {
        this.startNanos = startNanos;
        this.startedAtMillis = startedAtMillis;
        this.deadlineMs = deadlineMs;
        this.sessionIdleMs = sessionIdleMs;
        this.lastPinnedNanos = startNanos;
    }

    /**
     * A request pinned to the node arrived: whether it may go there (the wait goes on). Counted when it may.
     *
     * @param sample the agent's fresh sample, or {@code null}
     */
    boolean admitPinned(long nowNanos, AgentSample sample) {
        if (state(nowNanos, sample) != DrainState.DRAINING) {
            return false;
        }
        lastPinnedNanos = nowNanos;
        pinned.record(nowNanos);
        return true;
    }

    /** Where the wait stands now; latches its end. */
    DrainState state(long nowNanos, AgentSample sample) {
        DrainState end = ended;
        if (end != null) {
            return end;
        }
        if (deadlineMs > 0 && nowNanos - startNanos >= deadlineMs * 1_000_000L) {
            end = DrainState.DEADLINE_PASSED;
        } else {
            int left = sessionsLeft(sample);
            if (left == 0 || left < 0 && nowNanos - lastPinnedNanos >= sessionIdleMs * 1_000_000L) {
                end = DrainState.DRAINED;
            }
        }
        if (end != null) {
            ended = end;
            return end;
        }
        return DrainState.DRAINING;
    }

    /** Active sessions the sample reports, -1 without a sample or without the metric. */
    static int sessionsLeft(AgentSample sample) {
        if (sample == null) {
            return -1;
        }
        double sessions = sample.value(PolicyMetric.AMX_SESSIONS_ACT);
        return Double.isNaN(sessions) ? -1 : (int) Math.max(0, Math.ceil(sessions));
    }

    int pinnedLastMinute(long nowNanos) {
        return pinned.count(nowNanos);
    }

    long startedAtMillis() {
        return startedAtMillis;
    }

    long deadlineAtMillis() {
        return deadlineMs > 0 ? startedAtMillis + deadlineMs : 0;
    }

    long deadlineMs() {
        return deadlineMs;
    }

    long sessionIdleMs() {
        return sessionIdleMs;
    }
}
