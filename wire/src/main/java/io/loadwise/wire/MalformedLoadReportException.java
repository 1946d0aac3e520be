package io.loadwise.wire;

/**
 * A load report (ORCA header or metrics JSON document) that cannot be understood. The message says what
 * was wrong and where, so the dispatcher can log it and ignore the report rather than use a partial one.
 */
public final class MalformedLoadReportException extends Exception {

    public MalformedLoadReportException(String message) {
        super(message);
    }

    public MalformedLoadReportException(String message, Throwable cause) {
        super(message, cause);
    }
}
