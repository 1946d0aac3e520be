package io.loadwise.dispatcher.logging;

import io.loadwise.dispatcher.config.AccessLogConfig;
import io.loadwise.dispatcher.config.AccessLogTemplate;

/** How an {@link AccessRecord} becomes one line, on the access log's writer thread; the line has no newline. */
interface AccessLineFormat {

    void append(AccessRecord record, StringBuilder line);

    static AccessLineFormat named(String format) {
        if (AccessLogTemplate.isTemplate(format)) {
            return new TemplateLine(format);
        }
        return switch (format) {
            case AccessLogConfig.LOADWISE -> new LoadwiseLine();
            case AccessLogConfig.JSON -> new JsonLine();
            case AccessLogConfig.COMBINED -> new ApacheLine(true);
            case AccessLogConfig.COMMON -> new ApacheLine(false);
            default -> throw new IllegalArgumentException("unknown access log format '" + format + "'");
        };
    }
}
