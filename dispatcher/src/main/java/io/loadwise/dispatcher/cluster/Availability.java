package io.loadwise.dispatcher.cluster;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.LongSupplier;

/**
 * Whether one node may be picked, as far as the node itself goes ({@link NodeState#healthy()}): connect
 * failures, the active health check, outlier ejection and the wait for its application each hold it out. One
 * volatile read and the clock answer {@link #healthy()}, which every pick asks.
 *
 * <p>Written by event loops (connect failures, ejections), the health checker and the node monitor; every field
 * is atomic or volatile.
 */
final class Availability {

    /** {@link #exclusions} bit: the active health check says the node is down. */
    private static final int HEALTH_DOWN = 1;
    /** {@link #exclusions} bit: outlier detection ejected the node. */
    private static final int EJECTED = 2;
    /** {@link #exclusions} bit: the node came back from connect failures and its application has not answered yet. */
    private static final int NOT_READY = 4;
    private static final VarHandle EXCLUSIONS;

    static {
        try {
            EXCLUSIONS = MethodHandles.lookup().findVarHandle(Availability.class, "exclusions", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final NodeState node;
    private final LongSupplier nanoClock;
    /** Connect failures mark the node down until this instant (nanoClock); 0 = up. */
    private volatile long connectDownUntilNanos;
    /**
     * Why the node is out beyond connect failures, one bit per cause ({@link #HEALTH_DOWN}, {@link #EJECTED},
     * {@link #NOT_READY}), so that {@link #healthy()} stays one volatile read ahead of the clock. Written off the
     * event loops, except an ejection, which is rare.
     */
    private volatile int exclusions;
    private volatile HealthReport health = HealthReport.NOT_CHECKED;
    /** Wall-clock end of the current ejection, 0 when the node is not ejected; for display. */
    private volatile long ejectedUntilMillis;
    /** Whether a connect failure also holds the node out until its application answers ({@link #awaitingReadiness}). */
    private volatile boolean readinessGated;
    /** Told when the node goes down and comes back (the node monitor re-probes it); {@code null} = nobody. */
    private volatile ReachabilityListener reachabilityListener;

    Availability(NodeState node, LongSupplier nanoClock) {
        this.node = node;
        this.nanoClock = nanoClock;
    }

    boolean healthy() {
        return exclusions == 0 && nanoClock.getAsLong() - connectDownUntilNanos >= 0;
    }

    HealthReport health() {
        return health;
    }

    void setHealth(HealthReport report) {
        this.health = report;
        setExclusion(HEALTH_DOWN, report.state() == HealthState.DOWN);
    }

    boolean ejected() {
        return (exclusions & EJECTED) != 0;
    }

    long ejectedUntilMillis() {
        return ejectedUntilMillis;
    }

    void setEjected(boolean ejected, long untilMillis) {
        this.ejectedUntilMillis = ejected ? untilMillis : 0;
        setExclusion(EJECTED, ejected);
    }

    private void setExclusion(int bit, boolean on) {
        int now;
        int next;
        do {
            now = exclusions;
            next = on ? now | bit : now & ~bit;
        } while (next != now && !EXCLUSIONS.compareAndSet(this, now, next));
    }

    boolean connectDown() {
        return nanoClock.getAsLong() - connectDownUntilNanos < 0;
    }

    /**
     * A connect to this node failed: keep it out of selection for {@code retryMillis}, and, when the node is
     * {@linkplain #setReadinessGated gated}, until its application answers ({@link #markReady}), whatever the
     * time: a server that accepts connections again may not serve its application yet.
     */
    void markConnectFailure(long retryMillis) {
        boolean wasDown = connectDown();
        connectDownUntilNanos = nanoClock.getAsLong() + retryMillis * 1_000_000L;
        if (readinessGated) {
            setExclusion(NOT_READY, true);
        }
        ReachabilityListener listener = reachabilityListener;
        if (!wasDown && listener != null) {
            listener.reachabilityChanged(node, false);
        }
    }

    /**
     * A connect succeeded (the proxy's, or the node monitor's probe got an answer): the node is back in
     * selection at once. The first success after a failure is reported to the listener.
     */
    void markConnectSuccess() {
        if (connectDownUntilNanos != 0) {
            connectDownUntilNanos = 0;
            ReachabilityListener listener = reachabilityListener;
            if (listener != null) {
                listener.reachabilityChanged(node, true);
            }
        }
    }

    /**
     * Whether the node is out until its application answers: it came back from connect failures (or its agent
     * stopped answering 200) and no readiness probe has passed since. A connect that succeeds does not end it.
     */
    boolean awaitingReadiness() {
        return (exclusions & NOT_READY) != 0;
    }

    /**
     * Holds the node out until its application answers ({@link #markReady}), also when no connect failed: its
     * agent, which answered before, now says the application is not deployed.
     *
     * @return whether this took the node out (it was not held out already)
     */
    boolean holdUntilReady() {
        if (awaitingReadiness()) {
            return false;
        }
        setExclusion(NOT_READY, true);
        return true;
    }

    /**
     * Its application answered (the agent with 200 or 401, or a passing health check): the readiness hold and
     * any connect hold-out end, and the node is back in selection.
     *
     * @return whether the node was held out until ready
     */
    boolean markReady() {
        boolean wasHeld = awaitingReadiness();
        setExclusion(NOT_READY, false);
        markConnectSuccess();
        return wasHeld;
    }

    void setReadinessGated(boolean gated) {
        this.readinessGated = gated;
    }

    boolean readinessGated() {
        return readinessGated;
    }

    void setReachabilityListener(ReachabilityListener listener) {
        this.reachabilityListener = listener;
    }
}
