package io.loadwise.dispatcher.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.rolling.FixedWindowRollingPolicy;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeBasedTriggeringPolicy;
import ch.qos.logback.core.util.FileSize;
import io.loadwise.dispatcher.config.AccessLogConfig;
import io.loadwise.dispatcher.config.LoggingConfig;
import java.util.Locale;
import java.util.Map;
import org.slf4j.LoggerFactory;

/**
 * Applies the configuration's {@code logging} section to logback at startup (TDR-04): root and
 * per-logger levels, an optional log file next to the console, and the access log on logger
 * {@value AccessLog#LOGGER}. Done in code rather than with a generated logback.xml so that one JSON file
 * configures everything.
 *
 * <p>Both files rotate by size ({@link Rotation#DEFAULT}): at {@code 100 MB} {@code access.log} becomes
 * {@code access.log.1}, the older archives shift up, and the oldest beyond {@code access.log.5} is
 * deleted, so each log takes at most six files. Rotation happens on the logging thread and compresses
 * nothing, so no event loop ever waits for a compressor.
 */
public final class LoggingSetup {

    static final String PATTERN = "%d{ISO8601} %-5level [%thread] %logger{36} - %msg%n";
    static final String ACCESS_PATTERN = "%d{ISO8601} %msg%n";
    /** The other access log formats carry their own time. */
    static final String ACCESS_LINE_PATTERN = "%msg%n";

    private LoggingSetup() {
    }

    /**
     * @param logging the configuration's section, or {@code null}
     * @param levelOverride the {@code --log-level} flag, or {@code null}; wins over {@code logging.level}
     */
    public static void apply(LoggingConfig logging, String levelOverride) {
        apply(logging, levelOverride, Rotation.DEFAULT);
    }

    /** As {@link #apply(LoggingConfig, String)}, with {@code rotation} for both files (tests use small ones). */
    static void apply(LoggingConfig logging, String levelOverride, Rotation rotation) {
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
            root.addAppender(rollingAppender(context, "FILE", logging.file(), PATTERN, rotation, false));
        }
        Logger access = context.getLogger(AccessLog.LOGGER);
        AccessLogConfig accessLog = logging.accessLog();
        if (accessLog != null) {
            String format = accessLog.formatOrDefault();
            String pattern = format.equals(AccessLogConfig.LOADWISE) ? ACCESS_PATTERN : ACCESS_LINE_PATTERN;
            AccessLog.format(format);
            OutputStreamAppender<ILoggingEvent> appender = accessLog.stdout()
                    ? consoleAppender(context, "ACCESS", pattern)
                    : rollingAppender(context, "ACCESS", accessLog.file(), pattern, rotation, true);
            appender.setImmediateFlush(false); // the writer thread flushes when its queue runs dry
            AccessLog.flushWith(() -> {
                java.io.OutputStream out = appender.getOutputStream();
                if (out != null) {
                    out.flush();
                }
            });
            access.addAppender(appender);
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

    /**
     * How a log file rotates: when it reaches {@code maxFileBytes} it is renamed {@code <file>.1}, the
     * archives shift up one and the one past {@code archives} is deleted. At most
     * {@code (archives + 1) * maxFileBytes} per log, plus what arrives between two size checks.
     *
     * @param checkMillis how often, at most, the file's size is looked at
     */
    record Rotation(long maxFileBytes, int archives, long checkMillis) {

        static final Rotation DEFAULT = new Rotation(100L * 1024 * 1024, 5, 1_000);

        Rotation {
            if (maxFileBytes < 1 || archives < 1 || archives > 20 || checkMillis < 0) {
                throw new IllegalArgumentException("bad log rotation " + maxFileBytes + " bytes, " + archives
                        + " archives (1..20), every " + checkMillis + " ms");
            }
        }
    }

    private static ConsoleAppender<ILoggingEvent> consoleAppender(LoggerContext context, String name, String pattern) {
        ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
        appender.setContext(context);
        appender.setName(name);
        appender.setEncoder(encoder(context, pattern));
        appender.start();
        return appender;
    }

    private static PatternLayoutEncoder encoder(LoggerContext context, String pattern) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(pattern);
        encoder.start();
        return encoder;
    }

    /**
     * @param buffered written through a buffer (flushed by the access log's writer), which the file may outgrow its
     *     size by: a twentieth of the size, at most 8 KB
     */
    private static RollingFileAppender<ILoggingEvent> rollingAppender(LoggerContext context, String name, String file,
            String pattern, Rotation rotation, boolean buffered) {
        PatternLayoutEncoder encoder = encoder(context, pattern);
        RollingFileAppender<ILoggingEvent> appender = new RollingFileAppender<>();
        appender.setContext(context);
        appender.setName(name);
        appender.setFile(file);
        appender.setAppend(true);
        appender.setEncoder(encoder);

        FixedWindowRollingPolicy archives = new FixedWindowRollingPolicy();
        archives.setContext(context);
        archives.setParent(appender);
        // '%' starts a conversion word in logback's file name patterns; one in the path itself is escaped.
        archives.setFileNamePattern(file.replace("%", "\\%") + ".%i");
        archives.setMinIndex(1);
        archives.setMaxIndex(rotation.archives());
        archives.start();

        SizeBasedTriggeringPolicy<ILoggingEvent> size = new SizeBasedTriggeringPolicy<>();
        size.setContext(context);
        size.setMaxFileSize(new FileSize(rotation.maxFileBytes()));
        size.setCheckIncrement(ch.qos.logback.core.util.Duration.buildByMilliseconds(rotation.checkMillis()));
        size.start();

        appender.setRollingPolicy(archives);
        appender.setTriggeringPolicy(size);
        if (buffered) {
            appender.setBufferSize(new FileSize(Math.max(64, Math.min(8_192, rotation.maxFileBytes() / 20))));
            appender.setImmediateFlush(false);
        }
        appender.start();
        return appender;
    }
}
