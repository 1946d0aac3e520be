package io.loadwise.console.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadwise.dispatcher.config.DrainMode;
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
        node.properties().forEach(e -> {
            if (e.getValue().isNumber()) {
                values.put(e.getKey(), e.getValue().doubleValue());
            } else {
                errors.add(name + "." + e.getKey() + ": expected a number, got " + e.getValue());
            }
        });
        return values;
    }

    /**
     * {@code true}, {@code false} or {@code "sessions"} ({@link DrainMode}); {@code null} when absent. Anything
     * else, JSON null included, is an error naming the field.
     */
    DrainMode optionalDrain(String name) {
        JsonNode node = body.get(name);
        if (node == null) {
            return null;
        }
        try {
            return DrainMode.of(node.isBoolean() ? node.booleanValue() : node.isTextual() ? node.textValue()
                    : node.isArray() ? java.util.List.of() : node.isObject() ? java.util.Map.of()
                    : node.isNumber() ? node.numberValue() : null);
        } catch (IllegalArgumentException e) {
            errors.add(name + ": " + e.getMessage());
            return null;
        }
    }

    /** A whole number of at least {@code min}; {@code null} when absent. */
    Long optionalLong(String name, long min) {
        JsonNode node = body.get(name);
        if (node == null) {
            return null;
        }
        if (!node.isIntegralNumber() || !node.canConvertToLong()) {
            errors.add(name + ": expected a whole number, got " + node);
            return null;
        }
        if (node.longValue() < min) {
            errors.add(name + ": " + node.longValue() + " must be at least " + min);
            return null;
        }
        return node.longValue();
    }

    /** Adds a problem that involves more than one field. */
    void error(String problem) {
        errors.add(problem);
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
