package io.loadwise.dispatcher.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import io.loadwise.dispatcher.config.LoggingConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class LoggingSetupTest {

    @TempDir
    Path dir;

    private final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    private final Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private final Logger access = context.getLogger(AccessLog.LOGGER);
    private final Level rootBefore = root.getLevel();
    private final Level accessBefore = access.getLevel();

    @AfterEach
    void restore() {
        root.detachAppender("FILE");
        access.detachAppender("ACCESS");
        root.setLevel(rootBefore);
        access.setLevel(accessBefore);
        context.getLogger("io.loadwise.test.quiet").setLevel(null);
    }

    @Test
    void writesTheLogFileTheAccessLogAndAppliesLevels() throws Exception {
        Path logFile = dir.resolve("loadwise.log");
        Path accessFile = dir.resolve("access.log");
        LoggingSetup.apply(new LoggingConfig("info", Map.of("io.loadwise.test.quiet", "error"), logFile.toString(),
                accessFile.toString()), null);

        LoggerFactory.getLogger("io.loadwise.test.loud").info("visible line");
        LoggerFactory.getLogger("io.loadwise.test.quiet").warn("suppressed line");
        AccessLog.tcp("/127.0.0.1:5000", "web", "n2", 10, 20, 7);
        AccessLog.http("/127.0.0.1:5001", "GET", "/trade?x=1", 200, "n1", 512, 3);

        String log = Files.readString(logFile);
        assertTrue(log.contains("INFO  [main] io.loadwise.test.loud - visible line"), log);
        assertFalse(log.contains("suppressed line"), log);
        assertFalse(log.contains("tcp web"), "access lines stay out of the main log");
        String lines = Files.readString(accessFile);
        assertTrue(lines.contains(" /127.0.0.1:5000 tcp web n2 in=10 out=20 7ms\n"), lines);
        assertTrue(lines.contains(" /127.0.0.1:5001 \"GET /trade?x=1\" 200 n1 512 3ms\n"), lines);
    }

    @Test
    void theCommandLineLevelWins() {
        LoggingSetup.apply(new LoggingConfig("warn", null, null, null), "debug");
        assertEquals(Level.DEBUG, root.getLevel());
        LoggingSetup.apply(new LoggingConfig("warn", null, null, null), null);
        assertEquals(Level.WARN, root.getLevel());
        assertFalse(AccessLog.enabled(), "no access log unless configured");
    }

    @Test
    void unknownLevelIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> LoggingSetup.toLevel("chatty"));
    }
}
