package io.loadwise.console.api;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;

/**
 * An unexpected failure, told to the client only as an incident id: the exception's text and stack trace go to
 * the log at ERROR under that id, never into a response, since they may name files, classes or values that are
 * nobody's business outside.
 */
public final class Incident {

    private Incident() {
    }

    /**
     * Logs {@code failure} at ERROR with its stack trace and a new incident id.
     *
     * @param what what failed, for the log line (no request text beyond method and normalised path)
     * @return the id, to be shown to the client
     */
    public static String log(Logger log, String what, Throwable failure) {
        // Ids only need to be unique enough to find the line in the log, not unguessable.
        String id = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        log.error("{} failed: incident {}", what, id, failure);
        return id;
    }

    /** The text a client is shown for incident {@code id}. */
    public static String message(String id) {
        return "internal error, incident " + id + "; the dispatcher log has the details under this id";
    }
}
