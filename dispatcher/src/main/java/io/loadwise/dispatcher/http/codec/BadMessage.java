package io.loadwise.dispatcher.http.codec;

import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * Why a client's message was refused: the status to answer with and a short reason of our own words
 * (never an exception's text), carried as the decoder result's cause. Stackless: it is an expected
 * outcome of hostile or broken input, not a bug.
 */
public final class BadMessage extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient HttpResponseStatus status;

    public BadMessage(HttpResponseStatus status, String reason) {
        super(reason, null, false, false);
        this.status = status;
    }

    static BadMessage badRequest(String reason) {
        return new BadMessage(HttpResponseStatus.BAD_REQUEST, reason);
    }

    public HttpResponseStatus status() {
        return status;
    }

    /** The reason, fit for the client and the log. */
    public String reason() {
        return getMessage();
    }
}
