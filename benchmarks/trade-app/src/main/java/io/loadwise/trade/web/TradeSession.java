package io.loadwise.trade.web;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.List;

/**
 * What a logged-in user's HTTP session holds: who they are and a bounded history of what they did.
 * The history is what makes heap use grow with the number (and age) of live sessions, as the
 * session state of a real trading front end would.
 */
public final class TradeSession {

    /** The HTTP session attribute under which this object is stored. */
    public static final String ATTRIBUTE = "io.loadwise.trade.session";

    /** One remembered action; {@code detail} is e.g. the quoted prices or the order confirmation. */
    public record Entry(Instant at, TradeAction action, String detail) {
    }

    private final String userId;
    private final int accountId;
    private final Instant loggedIn;
    private final int historyLimit;
    private final ArrayDeque<Entry> history;

    public TradeSession(String userId, int accountId, int historyLimit) {
        if (historyLimit < 1) {
            throw new IllegalArgumentException("historyLimit must be positive, got " + historyLimit);
        }
        this.userId = userId;
        this.accountId = accountId;
        this.loggedIn = Instant.now();
        this.historyLimit = historyLimit;
        this.history = new ArrayDeque<>(Math.min(historyLimit, 16));
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
