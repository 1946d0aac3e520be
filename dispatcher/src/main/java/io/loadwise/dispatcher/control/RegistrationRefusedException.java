package io.loadwise.dispatcher.control;

import java.util.List;

/**
 * A registration, heartbeat or deregistration that the dispatcher refuses, with the HTTP status the REST API
 * answers: 400 (a field is wrong; {@link #details()} names each), 403 (the cluster takes no registrations,
 * or the address is outside its allowed networks), 404 (no such cluster or registered node), 409 (the name
 * is a configured node's, or the cluster holds its maximum of registered nodes).
 */
public final class RegistrationRefusedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final List<String> details;

    public RegistrationRefusedException(int status, String message, List<String> details) {
        super(message);
        this.status = status;
        this.details = List.copyOf(details);
    }

    public RegistrationRefusedException(int status, String message) {
        this(status, message, List.of());
    }

    public int status() {
        return status;
    }

    public List<String> details() {
        return details;
    }
}
