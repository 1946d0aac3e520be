package io.loadwise.agent.http;

/** What a servlet flavour writes back for a metrics request: status, content type, body. */
public final class EndpointResponse {

    private final int status;
    private final String contentType;
    private final String body;

    EndpointResponse(int status, String contentType, String body) {
        this.status = status;
        this.contentType = contentType;
        this.body = body;
    }

    public int status() {
        return status;
    }

    /** Including the charset (always UTF-8). */
    public String contentType() {
        return contentType;
    }

    public String body() {
        return body;
    }

    /** Whether the response must carry {@code WWW-Authenticate} (401). */
    public boolean challenge() {
        return status == 401;
    }
}
