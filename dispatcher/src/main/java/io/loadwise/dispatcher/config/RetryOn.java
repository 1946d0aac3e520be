package io.loadwise.dispatcher.config;

import java.util.List;

/**
 * What a cluster retries on another node (its {@code retryOn} list), after HAProxy's {@code retry-on}: a request
 * is sent again only when the way its first node failed is named here. Immutable; one bit per condition, so the
 * exchange asks with one {@code &}.
 *
 * <ul>
 *   <li>{@value #CONNECT_FAILURE}: the connection to the node could not be opened (refused, timed out); nothing
 *   was sent. Without it a request gets 502 at its first failed connect ({@code connectAttempts} is not
 *   used).</li>
 *   <li>{@value #RESET}: the node closed or reset the connection after the request went out and before any byte
 *   of its response.</li>
 *   <li>{@value #REFUSED_STREAM}: the node refused an HTTP/2 stream before processing it
 *   ({@code nodeProtocol} h2 or h2c): RST_STREAM with REFUSED_STREAM, or a stream above a GOAWAY's last stream
 *   id. Over HTTP/1.1 no stream is refused.</li>
 *   <li>{@value #RESPONSE_TIMEOUT}: the node did not answer within {@code responseTimeoutMs}. The node may
 *   have acted on the request (a GET that buys), so it is not in the default.</li>
 * </ul>
 * Whatever the list says, a request is sent again only when {@code Replay} allows it (idempotent and bodyless,
 * or no body byte sent yet), at most once, and within the cluster's {@code retryBudgetPercent}.
 */
public final class RetryOn {

    public static final String CONNECT_FAILURE = "connect-failure";
    public static final String RESET = "reset";
    public static final String REFUSED_STREAM = "refused-stream";
    public static final String RESPONSE_TIMEOUT = "response-timeout";
    /** Every value {@code retryOn} accepts, in the order the documentation lists them. */
    public static final List<String> ALLOWED = List.of(CONNECT_FAILURE, RESET, REFUSED_STREAM, RESPONSE_TIMEOUT);
    /** Without {@code retryOn}: what cannot have reached the application. */
    public static final List<String> DEFAULT_VALUES = List.of(CONNECT_FAILURE, RESET, REFUSED_STREAM);
    public static final RetryOn DEFAULT = of(DEFAULT_VALUES);

    private final int conditions;

    private RetryOn(int conditions) {
        this.conditions = conditions;
    }

    /**
     * The conditions named in {@code values}, which the validator has checked.
     *
     * @throws IllegalArgumentException on a value not in {@link #ALLOWED}
     */
    public static RetryOn of(List<String> values) {
        int conditions = 0;
        for (String value : values) {
            int index = value == null ? -1 : ALLOWED.indexOf(value); // List.of's indexOf refuses null
            if (index < 0) {
                throw new IllegalArgumentException(problem(value));
            }
            conditions |= 1 << index;
        }
        return new RetryOn(conditions);
    }

    /** What the validator says of a value not in {@link #ALLOWED}. */
    static String problem(String value) {
        return (value == null ? "null" : "'" + value + "'") + " is not a retry condition (allowed: "
                + String.join(", ", ALLOWED) + ")";
    }

    public boolean connectFailure() {
        return (conditions & 1) != 0; // bit i is ALLOWED.get(i)
    }

    public boolean reset() {
        return (conditions & 2) != 0;
    }

    public boolean refusedStream() {
        return (conditions & 4) != 0;
    }

    public boolean responseTimeout() {
        return (conditions & 8) != 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RetryOn other && other.conditions == conditions;
    }

    @Override
    public int hashCode() {
        return conditions;
    }

    @Override
    public String toString() {
        StringBuilder names = new StringBuilder("[");
        for (int i = 0; i < ALLOWED.size(); i++) {
            if ((conditions & (1 << i)) != 0) {
                names.append(names.length() > 1 ? ", " : "").append(ALLOWED.get(i));
            }
        }
        return names.append(']').toString();
    }
}
