package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * HTTP only: choose a node for every request (default) or once per client connection, as the seed's
 * TDCR-04 did.
 */
public enum Balance {
    PER_REQUEST("per-request"), PER_CONNECTION("per-connection");

    private final String id;

    Balance(String id) {
        this.id = id;
    }

    @JsonValue
    public String id() {
        return id;
    }

    @JsonCreator
    public static Balance of(String id) {
        for (Balance b : values()) {
            if (b.id.equals(id)) {
                return b;
            }
        }
        throw new IllegalArgumentException("unknown balance '" + id + "', expected per-request or per-connection");
    }
}
