package io.loadwise.dispatcher.config;

import java.util.List;

/**
 * A configuration (file, API request or console form) is invalid. Each error names the exact field and
 * the problem, e.g. {@code clusters[0].nodes[2].address: port 99999 out of range}.
 */
public final class ConfigValidationException extends Exception {

    private static final long serialVersionUID = 1L;

    private final List<String> errors;

    public ConfigValidationException(List<String> errors) {
        super(String.join("\n", errors));
        this.errors = List.copyOf(errors);
    }

    public ConfigValidationException(String error) {
        this(List.of(error));
    }

    public List<String> errors() {
        return errors;
    }
}
