package io.loadwise.dispatcher.monitor;

/**
 * When to ask one node's agent next (TAPR-05, issue 18): every {@code agentPollIntervalMs} while it gives
 * samples; once it has given none for longer than {@code agentExpiryMs} it is <em>silent</em>, and is
 * re-probed after 1 s, 2 s, 4 s, … up to {@code agentReprobeMs}, so a node without an agent is not asked
 * every second for ever, while one that was only restarting is asked again soon. Any sign of life ends the
 * silence and the back-off.
 *
 * <p>While the proxy holds the node out after a connect failure, the probe is what readmits it, so it is
 * repeated every {@value #FIRST_REPROBE_MILLIS} ms without growing: a node that comes back is answering
 * again within a second.
 *
 * <p>Time is passed in ({@code System.nanoTime()} in the monitor, a test's own clock in tests). Methods are
 * synchronized: the monitor thread, the HTTP client's threads and hand-overs from event loops call them.
 */
final class ReprobeSchedule {

    /** The first re-probe of a silent agent, and the probe interval of a node held out by connect failures. */
    static final long FIRST_REPROBE_MILLIS = 1_000;

    private long lastSignOfLifeNanos;
    private boolean silent;
    /** The delay of the next back-off step; 0 before the first. */
    private long nextReprobeMillis;
    /** The poll chain allowed to run; any other scheduled poll of this node is stale and drops out. */
    private long chain;

    /** @param startNanos when monitoring began: a node that was just added gets one expiry period to answer */
    ReprobeSchedule(long startNanos) {
        this.lastSignOfLifeNanos = startNanos;
    }

    /**
     * A good sample arrived, or the node accepts connections again: ends a reported silence and the
     * back-off.
     *
     * @return whether the agent was silent, i.e. a re-probe may be far off and the caller should poll now
     */
    synchronized boolean signOfLife(long nowNanos) {
        lastSignOfLifeNanos = nowNanos;
        nextReprobeMillis = 0;
        boolean was = silent;
        silent = false;
        return was;
    }

    /**
     * A poll failed. The agent becomes silent once it has had no sign of life for longer than
     * {@code expiryMillis}: one slow answer from a busy node changes nothing.
     *
     * @return true once per silence, for the failure that began it (the caller reports it)
     */
    synchronized boolean pollFailed(long nowNanos, long expiryMillis) {
        if (!silent && nowNanos - lastSignOfLifeNanos > expiryMillis * 1_000_000L) {
            silent = true;
            return true;
        }
        return false;
    }

    /**
     * The delay before the next poll, decided when one ended; a back-off step is taken only for a silent
     * agent of a node that is not held out.
     *
     * @param ok the poll gave a good sample
     * @param nodeConnectDown connect failures hold the node out of selection
     */
    synchronized long delayAfterPoll(boolean ok, boolean nodeConnectDown, long pollMillis, long reprobeMillis) {
        if (ok || !silent) {
            return pollMillis;
        }
        long first = Math.min(FIRST_REPROBE_MILLIS, reprobeMillis);
        if (nodeConnectDown) {
            return first;
        }
        long delay = nextReprobeMillis == 0 ? first : Math.min(nextReprobeMillis, reprobeMillis);
        nextReprobeMillis = Math.min(delay * 2, reprobeMillis);
        return delay;
    }

    /** Whether the agent's silence has been reported and no sign of life has ended it. */
    synchronized boolean silent() {
        return silent;
    }

    /** Nanoseconds since the last sign of life, or since monitoring began when there was none. */
    synchronized long nanosSinceSignOfLife(long nowNanos) {
        return nowNanos - lastSignOfLifeNanos;
    }

    /** Makes {@code id} the only poll chain of this node allowed to run. */
    synchronized void startChain(long id) {
        chain = id;
    }

    synchronized boolean isCurrentChain(long id) {
        return chain == id;
    }
}
