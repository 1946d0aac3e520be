package io.loadwise.trade.web;

import java.io.Serializable;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.List;

/**
 * What a logged-in user's HTTP session holds: who they are and a bounded history of what they did.
 * The history is what makes heap use grow with the number (and age) of live sessions, as the
 * session state of a real trading front end would. Serializable, so that a container replicating sessions (the
 * replication-domains benchmark's DeltaManager) can copy it to another node.
 */
public final class TradeSession implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The HTTP session attribute under which this object is stored. */
    public static final String ATTRIBUTE = "io.loadwise.trade.session";

    /** One remembered action; {@code detail} is e.g. the quoted prices or the order confirmation. */
    public record Entry(Instant at, TradeAction action, String detail) implements Serializable {
    }

    private final String userId;
    private final int accountId;
    private final Instant loggedIn;
    private final int historyLimit;
    private final ArrayDeque<Entry> history;
    /**
     * Conversational state of a fixed size, standing in for what a full Java EE front end keeps per
     * session (JSF view state, stateful beans, cached pages). Zero by default; the benchmarks set it so
     * that heap capacity, not only CPU, limits how many sessions a node can hold.
     */
    private final byte[] state;

    public TradeSession(String userId, int accountId, int historyLimit) {
        this(userId, accountId, historyLimit, 0);
    }

    public TradeSession(String userId, int accountId, int historyLimit, int stateKb) {
        if (historyLimit < 1) {
            throw new IllegalArgumentException("historyLimit must be positive, got " + historyLimit);
        }
        if (stateKb < 0) {
            throw new IllegalArgumentException("stateKb must not be negative, got " + stateKb);
        }
        this.userId = userId;
        this.accountId = accountId;
        this.loggedIn = Instant.now();
        this.historyLimit = historyLimit;
        this.history = new ArrayDeque<>(Math.min(historyLimit, 16));
        this.state = new byte[stateKb * 1024];
        // Touch every page so the state is real, resident memory from the first request on.
        for (int i = 0; i < state.length; i += 512) {
            state[i] = (byte) i;
        }
    }

    /** Size of the session's fixed conversational state, in bytes. */
    public int stateBytes() {
        return state.length;
    }

    public String userId() {
        return userId;
    }

    public int accountId() {
        return accountId;
    }

    public Instant loggedIn() {
        return loggedIn;
    }

    /** Remembers an action, forgetting the oldest one beyond the limit. */
    public synchronized void record(TradeAction action, String detail) {
        if (history.size() == historyLimit) {
            history.removeFirst();
        }
        history.addLast(new Entry(Instant.now(), action, detail));
    }

    public synchronized List<Entry> history() {
        return List.copyOf(history);
    }
}
