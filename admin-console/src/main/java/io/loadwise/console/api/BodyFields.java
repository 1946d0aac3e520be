package io.loadwise.console.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Strict reading of a small request object ({@code {"enabled": false}}): unknown fields and wrong types
 * are collected, one message per field, and reported together as one 400.
 */
final class BodyFields {

    private final ObjectNode body;
    private final List<String> errors = new ArrayList<>();

    BodyFields(ObjectNode body, Set<String> known) {
        this.body = body;
        for (Iterator<String> names = body.fieldNames(); names.hasNext();) {
            String name = names.next();
            if (!known.contains(name)) {
                errors.add(name + ": unknown field, expected " + String.join(", ", known.stream().sorted().toList()));
            }
        }
    }

    /** {@code null} when absent. */
    Boolean optionalBoolean(String name) {
        JsonNode node = body.get(name);
        if (node == null) {
            return null;
        }
        if (!node.isBoolean()) {
            errors.add(name + ": expected true or false, got " + node);
            return null;
        }
        return node.booleanValue();
    }

    /** {@code null} when absent. */
    Integer optionalInt(String name) {
        JsonNode node = body.get(name);
        if (node == null) {
            return null;
        }
        if (!node.isIntegralNumber() || !node.canConvertToInt()) {
            errors.add(name + ": expected an integer, got " + node);
            return null;
        }
        return node.intValue();
    }

    String requiredText(String name) {
        JsonNode node = body.get(name);
        if (node == null || node.isNull()) {
            errors.add(name + ": missing");
            return null;
        }
        if (!node.isTextual() || node.textValue().isBlank()) {
            errors.add(name + ": expected a non-empty string, got " + node);
            return null;
        }
        return node.textValue();
    }

    /** An object of numbers, e.g. policy options; empty when absent. */
    Map<String, Double> optionalNumbers(String name) {
        Map<String, Double> values = new LinkedHashMap<>();
        JsonNode node = body.get(name);
        if (node == null || node.isNull()) {
            return values;
        }
        if (!node.isObject()) {
            errors.add(name + ": expected an object of numbers, got " + node);
            return values;
        }
        node.fields().forEachRemaining(e -> {
            if (e.getValue().isNumber()) {
                values.put(e.getKey(), e.getValue().doubleValue());
            } else {
                errors.add(name + "." + e.getKey() + ": expected a number, got " + e.getValue());
            }
        });
        return values;
    }

    boolean has(String name) {
        return body.has(name);
    }

    /** Throws the collected problems, if any, as one 400. */
    void check(String what) throws ApiException {
        if (!errors.isEmpty()) {
            throw new ApiException(400, "invalid " + what, errors);
        }
    }
}
