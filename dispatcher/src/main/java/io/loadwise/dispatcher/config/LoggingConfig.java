package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * Logging (TDR-04).
 *
 * @param level root level: trace, debug, info, warn, error; default info
 * @param levels per-logger levels, e.g. {@code {"io.loadwise.dispatcher.http": "debug"}}
 * @param file log file; default: console only
 * @param accessLog access log, one line per request or tunnel ({@link AccessLogConfig}); default: none
 * @param requestId whether a missing or invalid {@code X-Request-Id} is generated; default true
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LoggingConfig(String level, Map<String, String> levels, String file, AccessLogConfig accessLog,
        Boolean requestId) {

    public LoggingConfig(String level, Map<String, String> levels, String file, AccessLogConfig accessLog) {
        this(level, levels, file, accessLog, null);
    }

    public boolean requestIdOrDefault() {
        return requestId == null || requestId;
    }
}
