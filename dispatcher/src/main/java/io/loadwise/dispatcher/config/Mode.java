package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** How a virtual cluster dispatches: a TCP tunnel per connection (L4) or HTTP requests (L7). */
public enum Mode {
    TCP, HTTP;

    @JsonValue
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static Mode of(String id) {
        for (Mode m : values()) {
            if (m.id().equals(id)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown mode '" + id + "', expected tcp or http");
    }
}
