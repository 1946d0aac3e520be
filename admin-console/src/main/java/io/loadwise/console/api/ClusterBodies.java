package io.loadwise.console.api;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.ConfigValidationException;

/** Turns a request body into a {@link ClusterConfig} as strictly as the configuration file is read. */
final class ClusterBodies {

    private ClusterBodies() {
    }

    static ClusterConfig parse(ObjectNode body) throws ConfigValidationException {
        try {
            return ApiJson.MAPPER.treeToValue(body, ClusterConfig.class);
        } catch (JacksonException e) {
            throw new ConfigValidationException(describe(e));
        } catch (IllegalArgumentException e) {
            throw new ConfigValidationException(e.getMessage());
        }
    }

    private static String describe(JacksonException e) {
        if (!(e instanceof JsonMappingException m) || m.getPath().isEmpty()) {
            return e.getOriginalMessage();
        }
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference ref : m.getPath()) {
            if (ref.getFieldName() != null) {
                path.append(path.length() == 0 ? "" : ".").append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                path.append('[').append(ref.getIndex()).append(']');
            }
        }
        if (e instanceof UnrecognizedPropertyException) {
            return path + ": unknown field";
        }
        if (e instanceof ValueInstantiationException v && v.getCause() != null) {
            return path + ": " + v.getCause().getMessage();
        }
        return path + ": " + e.getOriginalMessage();
    }
}
