package io.loadwise.bench.provision;

/**
 * How the trade app's requests use the nodes' JDBC pools ({@code --jdbc-hold-ms}, {@code --jdbc-max-wait-ms}): each
 * scenario request holds a connection {@code holdMs} while it pauses, and a request waits at most {@code maxWaitMs}
 * for a connection before the app answers 503.
 */
public record JdbcTiming(long holdMs, long maxWaitMs) {

    /** No hold, the pools' 10 s wait: the sweep before these options. */
    public static final JdbcTiming DEFAULT = new JdbcTiming(0, 10_000);

    /** The trade app's system property for the hold (its TradeAppListener reads it once). */
    public static final String HOLD_PROPERTY = "trade.jdbc.holdMs";

    public JdbcTiming {
        if (holdMs < 0) {
            throw new IllegalArgumentException("--jdbc-hold-ms must not be negative, got " + holdMs);
        }
        if (maxWaitMs < 1) {
            throw new IllegalArgumentException("--jdbc-max-wait-ms must be at least 1, got " + maxWaitMs);
        }
    }
}
