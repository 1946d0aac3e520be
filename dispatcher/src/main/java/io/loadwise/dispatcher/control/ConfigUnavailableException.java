package io.loadwise.dispatcher.control;

/**
 * The configuration store cannot be reached, so a change cannot be written. The configuration in force
 * is kept and the clusters keep serving; the REST API answers {@code 503 Service Unavailable}.
 */
public final class ConfigUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ConfigUnavailableException(String message) {
        super(message);
    }
}
