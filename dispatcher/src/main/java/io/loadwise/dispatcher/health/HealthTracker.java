package io.loadwise.dispatcher.health;

import io.loadwise.dispatcher.cluster.HealthState;

/**
 * The rise/fall state machine of one node's active health check (HAProxy's {@code rise} and
 * {@code fall}). A node starts {@link HealthState#UNKNOWN} and in selection; its first passing check makes
 * it {@link HealthState#UP}. {@code fall} failed checks in a row make it {@link HealthState#DOWN}, and only
 * {@code rise} passing checks in a row bring it back. One node's checks never overlap; the lock is for
 * {@link #adopt}, which reads another node's tracker from the thread of a reload.
 */
final class HealthTracker {

    private final int rise;
    private final int fall;
    private HealthState state = HealthState.UNKNOWN;
    private int passes;
    private int failures;

    HealthTracker(int rise, int fall) {
        if (rise < 1 || fall < 1) {
            throw new IllegalArgumentException("rise " + rise + " and fall " + fall + " must be at least 1");
        }
        this.rise = rise;
        this.fall = fall;
    }

    /** Records one check and returns the state after it. */
    synchronized HealthState record(boolean ok) {
        if (ok) {
            failures = 0;
            passes = Math.min(passes + 1, rise);
            if (state == HealthState.UNKNOWN || (state == HealthState.DOWN && passes >= rise)) {
                state = HealthState.UP;
            }
        } else {
            passes = 0;
            failures = Math.min(failures + 1, fall);
            if (state != HealthState.DOWN && failures >= fall) {
                state = HealthState.DOWN;
            }
        }
        return state;
    }

    synchronized HealthState state() {
        return state;
    }

    /** Takes over {@code from}'s state and counters (the same node and check in a rebuilt cluster). */
    void adopt(HealthTracker from) {
        HealthState s;
        int p;
        int f;
        synchronized (from) {
            s = from.state;
            p = from.passes;
            f = from.failures;
        }
        synchronized (this) {
            state = s;
            passes = Math.min(p, rise);
            failures = Math.min(f, fall);
        }
    }
}
