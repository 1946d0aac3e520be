package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A header or query condition: a JSON string is an exact value, {@code {"present": true}} asks only that it
 * be there.
 *
 * @param exact the value it must have, or null
 * @param present true when any value will do
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ValueMatch(String exact, Boolean present) {

    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static ValueMatch exactly(String value) {
        return new ValueMatch(value, null);
    }

    @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
    public static ValueMatch of(@JsonProperty("exact") String exact, @JsonProperty("present") Boolean present) {
        return new ValueMatch(exact, present);
    }

    public boolean presenceOnly() {
        return exact == null && Boolean.TRUE.equals(present);
    }

    /** Written back as it is read: a plain string for an exact value. */
    @JsonValue
    public Object json() {
        if (exact != null && present == null) {
            return exact;
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        if (exact != null) {
            fields.put("exact", exact);
        }
        if (present != null) {
            fields.put("present", present);
        }
        return fields;
    }
}
