package io.loadwise.console.api;

import java.util.List;

/** A request the API refuses: the HTTP status and the JSON error body {@code {"error", "details"}}. */
public final class ApiException extends Exception {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final List<String> details;

    public ApiException(int status, String error, List<String> details) {
        super(error);
        this.status = status;
        this.details = List.copyOf(details);
    }

    public ApiException(int status, String error) {
        this(status, error, List.of());
    }

    public static ApiException badRequest(String error) {
        return new ApiException(400, error);
    }

    public static ApiException notFound(String error) {
        return new ApiException(404, error);
    }

    public int status() {
        return status;
    }

    public List<String> details() {
        return details;
    }
}
