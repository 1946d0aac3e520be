package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * A node's {@code drain}: {@code false} (takes work), {@code true} (takes no new work at all, pinned requests
 * included: finishes what it has) or {@code "sessions"} (takes no new session and no unpinned request, but the
 * requests whose affinity names it still go to it, until its sessions are gone).
 */
public enum DrainMode {
    NONE(Boolean.FALSE, "none"),
    IMMEDIATE(Boolean.TRUE, "immediate"),
    SESSIONS("sessions", "sessions");

    private final Object json;
    private final String id;

    DrainMode(Object json, String id) {
        this.json = json;
        this.id = id;
    }

    /** How the configuration and the API write it: {@code false}, {@code true} or {@code "sessions"}. */
    @JsonValue
    public Object json() {
        return json;
    }

    /** The mode's name in status and on the command line: {@code none}, {@code immediate}, {@code sessions}. */
    public String id() {
        return id;
    }

    /**
     * Reads {@code true}, {@code false} or {@code "sessions"}; anything else (a number, {@code "true"},
     * {@code "Sessions"}, null) is refused.
     *
     * @throws IllegalArgumentException naming what it got
     */
    @JsonCreator
    public static DrainMode of(Object value) {
        if (value instanceof Boolean b) {
            return b ? IMMEDIATE : NONE;
        }
        if ("sessions".equals(value)) {
            return SESSIONS;
        }
        String got = value instanceof String s ? "\"" + s + "\""
                : value instanceof java.util.List ? "an array" : value instanceof java.util.Map ? "an object"
                : String.valueOf(value);
        throw new IllegalArgumentException("expected true, false or \"sessions\", got " + got);
    }

    /** Refuses a session drain's times that mean nothing: a negative deadline, an idle time under 1 ms. */
    public static void checkTimes(long deadlineMs, long sessionIdleMs) throws ConfigValidationException {
        if (deadlineMs < 0) {
            throw new ConfigValidationException("deadlineMs: " + deadlineMs + " must be 0 (none) or more");
        }
        if (sessionIdleMs < 1) {
            throw new ConfigValidationException("sessionIdleMs: " + sessionIdleMs + " must be at least 1");
        }
    }
}
