package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads and writes the JSON configuration. Parsing is strict: an unknown field, a wrong type or a
 * syntax error is an error naming the field path ({@code clusters[0].nodes[1].wieght: unknown field})
 * or the line and column. Semantic checks are {@link ConfigValidator}'s job.
 */
public final class ConfigLoader {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(SerializationFeature.INDENT_OUTPUT);

    static {
        // Jackson reads 0 and 1 as booleans by default: "backup": 1 would pass unnoticed; a flag is true or false.
        MAPPER.coercionConfigFor(LogicalType.Boolean).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
    }

    private ConfigLoader() {
    }

    /** Reads a configuration file. */
    public static LoadwiseConfig load(Path file) throws ConfigValidationException {
        String json;
        try {
            json = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new ConfigValidationException(file + ": no such file");
        } catch (IOException e) {
            throw new ConfigValidationException(file + ": cannot read: " + e.getMessage());
        }
        return parse(json);
    }

    /** Parses configuration JSON. */
    public static LoadwiseConfig parse(String json) throws ConfigValidationException {
        if (json.isBlank()) {
            throw new ConfigValidationException("the configuration is empty");
        }
        try {
            LoadwiseConfig config = MAPPER.readValue(json, LoadwiseConfig.class);
            rejectUnpairedSurrogates(json);
            return config;
        } catch (JsonProcessingException e) {
            throw new ConfigValidationException(describe(e));
        }
    }

    /** Parses one cluster (an API request body) with the same strictness. */
    public static ClusterConfig parseCluster(String json) throws ConfigValidationException {
        try {
            ClusterConfig cluster = MAPPER.readValue(json, ClusterConfig.class);
            rejectUnpairedSurrogates(json);
            return cluster;
        } catch (JsonProcessingException e) {
            throw new ConfigValidationException(describe(e));
        }
    }

    /** Parses one listener (an API request body, an etcd value) with the same strictness. */
    public static ListenerConfig parseListener(String json) throws ConfigValidationException {
        return parsePart(json, MAPPER.constructType(ListenerConfig.class));
    }

    /** Parses one rate limit (an API request body, an etcd value) with the same strictness. */
    public static RateLimitConfig parseRateLimit(String json) throws ConfigValidationException {
        return parsePart(json, MAPPER.constructType(RateLimitConfig.class));
    }

    /** Parses the whole {@code rateLimits} object (an API request body) with the same strictness. */
    public static java.util.Map<String, RateLimitConfig> parseRateLimits(String json)
            throws ConfigValidationException {
        return parsePart(json, MAPPER.getTypeFactory().constructMapType(java.util.LinkedHashMap.class, String.class,
                RateLimitConfig.class));
    }

    private static <T> T parsePart(String json, com.fasterxml.jackson.databind.JavaType type)
            throws ConfigValidationException {
        try {
            T part = MAPPER.readValue(json, type);
            rejectUnpairedSurrogates(json);
            return part;
        } catch (JsonProcessingException e) {
            throw new ConfigValidationException(describe(e));
        }
    }

    /** Text the file could not store as it is (see {@link UnpairedSurrogates}); found by ConfigLoaderFuzzTest. */
    private static void rejectUnpairedSurrogates(String json)
            throws JsonProcessingException, ConfigValidationException {
        if (json.contains("\\u") || UnpairedSurrogates.broken(json)) {
            String at = UnpairedSurrogates.find(MAPPER.readTree(json), "");
            if (at != null) {
                throw new ConfigValidationException((at.isEmpty() ? "(top level)" : at) + ": holds half of a"
                        + " UTF-16 surrogate pair (a \\uD800-\\uDFFF escape without its partner), which the"
                        + " UTF-8 configuration file cannot store");
            }
        }
    }

    /** Pretty-printed JSON of a configuration; absent optional fields are left out. */
    public static String toJson(Object config) {
        try {
            return MAPPER.writeValueAsString(config) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise configuration", e);
        }
    }

    static String describe(JsonProcessingException e) {
        if (e instanceof JsonMappingException m && !m.getPath().isEmpty()
                && m.getCause() instanceof com.fasterxml.jackson.core.exc.InputCoercionException tooBig) {
            // a number beyond an int is valid JSON: name the field rather than a line and column
            return path(m) + ": " + tooBig.getOriginalMessage();
        }
        JsonProcessingException syntax = e instanceof StreamReadException ? e
                : e.getCause() instanceof StreamReadException cause ? cause : null;
        if (syntax != null) {
            JsonLocation at = syntax.getLocation();
            String where = at == null ? "" : "line " + at.getLineNr() + ", column " + at.getColumnNr() + ": ";
            return where + "invalid JSON: " + syntax.getOriginalMessage();
        }
        if (e instanceof UnrecognizedPropertyException u) {
            return path(u) + ": unknown field";
        }
        if (e instanceof InvalidFormatException f) {
            return path(f) + ": '" + f.getValue() + "' is not a valid " + typeName(f.getTargetType());
        }
        if (e instanceof ValueInstantiationException v && v.getCause() != null) {
            return path(v) + ": " + v.getCause().getMessage();
        }
        if (e instanceof MismatchedInputException m) {
            return m.getPath().isEmpty() ? "(top level): expected a JSON object"
                    : path(m) + ": expected " + typeName(m.getTargetType());
        }
        if (e instanceof JsonMappingException m && !m.getPath().isEmpty()) {
            return path(m) + ": " + m.getOriginalMessage();
        }
        JsonLocation at = e.getLocation();
        String where = at == null ? "" : "line " + at.getLineNr() + ", column " + at.getColumnNr() + ": ";
        return where + "invalid JSON: " + e.getOriginalMessage();
    }

    private static String path(JsonMappingException e) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                if (sb.length() > 0) {
                    sb.append('.');
                }
                sb.append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                sb.append('[').append(ref.getIndex()).append(']');
            }
        }
        return sb.length() == 0 ? "(top level)" : sb.toString();
    }

    private static String typeName(Class<?> type) {
        if (type == null) {
            return "value";
        }
        if (type == Integer.class || type == int.class || type == Long.class) {
            return "integer";
        }
        if (type == Double.class || type == double.class) {
            return "number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "boolean (true or false)";
        }
        if (type == String.class) {
            return "string";
        }
        if (java.util.List.class.isAssignableFrom(type)) {
            return "array";
        }
        return "object";
    }
}
