package io.loadwise.console.api;

import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers the errors Tomcat produces itself, before any servlet runs (an invalid URI, an encoded slash),
 * and the exceptions that escape a servlet, in the API's own shape {@code {"error": ..., "details": []}}: no
 * HTML, no server version, no stack trace. An escaped exception is logged at ERROR under an incident id,
 * and only the id is sent.
 */
public final class ApiErrorReportValve extends ErrorReportValve {

    private static final Logger log = LoggerFactory.getLogger(ApiErrorReportValve.class);

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0) {
            return;
        }
        AtomicBoolean ioAllowed = new AtomicBoolean(false);
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
        if (!ioAllowed.get()) {
            return;
        }
        String message = throwable != null
                ? Incident.message(Incident.log(log, "admin server: " + request.getMethod() + " "
                        + request.getRequestURI(), throwable))
                : response.getMessage() == null || response.getMessage().isBlank() ? "HTTP status " + status
                : response.getMessage();
        try {
            String json = ApiJson.MAPPER.writeValueAsString(Map.of("error", message, "details", List.of()));
            response.setContentType("application/json");
            response.setCharacterEncoding("UTF-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write(json);
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // The client has gone or the response was committed meanwhile: nothing more to tell it.
        }
    }
}
