package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** HTTP only: session affinity. {@code cookie} pins a session to the node named by its JSESSIONID route. */
public enum Affinity {
    NONE("none"), COOKIE("cookie");

    private final String id;

    Affinity(String id) {
        this.id = id;
    }

    @JsonValue
    public String id() {
        return id;
    }

    @JsonCreator
    public static Affinity of(String id) {
        for (Affinity a : values()) {
            if (a.id.equals(id)) {
                return a;
            }
        }
        throw new IllegalArgumentException("unknown affinity '" + id + "', expected none or cookie");
    }
}
