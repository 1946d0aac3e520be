package io.loadwise.console.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** The lines one logger writes while this is open, at {@code level} and above; restores the logger on close. */
public final class LogLines implements AutoCloseable {

    private final Logger logger;
    private final Level before;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    public LogLines(Class<?> source, Level level) {
        this(source.getName(), level);
    }

    public LogLines(String loggerName, Level level) {
        logger = (Logger) LoggerFactory.getLogger(loggerName);
        before = logger.getLevel();
        appender.start();
        logger.setLevel(level);
        logger.addAppender(appender);
    }

    /** The lines so far, as level plus formatted message (a copy: the appender is written by server threads). */
    public List<String> lines() {
        synchronized (appender.list) {
            return appender.list.stream().map(e -> e.getLevel() + " " + e.getFormattedMessage()).toList();
        }
    }

    /** The events so far, with their exceptions. */
    public List<ILoggingEvent> events() {
        synchronized (appender.list) {
            return List.copyOf(appender.list);
        }
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        logger.setLevel(before);
        appender.stop();
    }
}
