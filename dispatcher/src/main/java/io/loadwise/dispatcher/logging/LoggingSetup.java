package io.loadwise.dispatcher.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.FileAppender;
import io.loadwise.dispatcher.config.LoggingConfig;
import java.util.Locale;
import java.util.Map;
import org.slf4j.LoggerFactory;

/**
 * Applies the configuration's {@code logging} section to logback at startup (TDR-04): root and
 * per-logger levels, an optional log file next to the console, and the access log on logger
 * {@value AccessLog#LOGGER}. Done in code rather than with a generated logback.xml so that one JSON file
 * configures everything.
 */
public final class LoggingSetup {

    static final String PATTERN = "%d{ISO8601} %-5level [%thread] %logger{36} - %msg%n";
    static final String ACCESS_PATTERN = "%d{ISO8601} %msg%n";

    private LoggingSetup() {
    }

    /**
     * @param logging the configuration's section, or {@code null}
     * @param levelOverride the {@code --log-level} flag, or {@code null}; wins over {@code logging.level}
     */
    public static void apply(LoggingConfig logging, String levelOverride) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            LoggerFactory.getLogger(LoggingSetup.class).warn("logging is not logback; logging settings ignored");
            return;
        }
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        String level = levelOverride != null ? levelOverride : logging == null ? null : logging.level();
        if (level != null) {
            root.setLevel(toLevel(level));
        }
        if (logging == null) {
            return;
        }
        if (logging.levels() != null) {
            for (Map.Entry<String, String> e : logging.levels().entrySet()) {
                context.getLogger(e.getKey()).setLevel(toLevel(e.getValue()));
            }
        }
        if (logging.file() != null) {
            root.addAppender(fileAppender(context, "FILE", logging.file(), PATTERN));
        }
        Logger access = context.getLogger(AccessLog.LOGGER);
        if (logging.accessLog() != null) {
            access.addAppender(fileAppender(context, "ACCESS", logging.accessLog(), ACCESS_PATTERN));
            access.setLevel(Level.INFO);
            access.setAdditive(false);
        }
    }

    /** A level name as in the config; the validator has already refused unknown ones. */
    public static Level toLevel(String name) {
        Level level = Level.toLevel(name.toUpperCase(Locale.ROOT), null);
        if (level == null) {
            throw new IllegalArgumentException("unknown log level '" + name
                    + "', expected one of trace, debug, info, warn, error, off");
        }
        return level;
    }

    private static FileAppender<ILoggingEvent> fileAppender(LoggerContext context, String name, String file,
            String pattern) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(pattern);
        encoder.start();
        FileAppender<ILoggingEvent> appender = new FileAppender<>();
        appender.setContext(context);
        appender.setName(name);
        appender.setFile(file);
        appender.setAppend(true);
        appender.setEncoder(encoder);
        appender.start();
        return appender;
    }
}
