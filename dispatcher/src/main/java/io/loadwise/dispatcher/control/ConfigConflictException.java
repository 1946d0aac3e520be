package io.loadwise.dispatcher.control;

/**
 * A configuration change lost a race: the shared configuration store (etcd) holds a newer version of
 * what it changes than the one it was based on. Nothing was written; the REST API answers
 * {@code 409 Conflict}, and the client reads the current state and tries again.
 */
public final class ConfigConflictException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ConfigConflictException(String message) {
        super(message);
    }
}
