package io.loadwise.dispatcher.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import io.loadwise.dispatcher.config.AccessLogConfig;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.dispatcher.config.LoggingConfig;
import java.io.IOException;
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
        stopAndDetach(root, "FILE");
        stopAndDetach(access, "ACCESS");
        root.setLevel(rootBefore);
        access.setLevel(accessBefore);
        context.getLogger("io.loadwise.test.quiet").setLevel(null);
    }

    @Test
    void writesTheLogFileTheAccessLogAndAppliesLevels() throws Exception {
        Path logFile = dir.resolve("loadwise.log");
        Path accessFile = dir.resolve("access.log");
        LoggingSetup.apply(new LoggingConfig("info", Map.of("io.loadwise.test.quiet", "error"), logFile.toString(),
                AccessLogConfig.ofFile(accessFile.toString())), null);

        LoggerFactory.getLogger("io.loadwise.test.loud").info("visible line");
        LoggerFactory.getLogger("io.loadwise.test.quiet").warn("suppressed line");
        AccessLog.tcp("/127.0.0.1:5000", "web", "n2", 10, 20, 7);
        AccessLog.http("/127.0.0.1:5001", "GET", "/trade?x=1", 200, "n1", 512, 3);

        awaitLines(accessFile, 2); // the access log's writer thread writes them
        String log = Files.readString(logFile);
        assertTrue(log.contains("INFO  [main] io.loadwise.test.loud - visible line"), log);
        assertFalse(log.contains("suppressed line"), log);
        assertFalse(log.contains("tcp web"), "access lines stay out of the main log");
        String lines = Files.readString(accessFile);
        assertTrue(lines.contains(" /127.0.0.1:5000 tcp web n2 in=10 out=20 7ms\n"), lines);
        assertTrue(lines.contains(" /127.0.0.1:5001 \"GET /trade?x=1\" 200 n1 512 3ms\n"), lines);
    }

    private static void awaitLines(Path file, int count) {
        Await.until(count + " lines in " + file, () -> {
            try {
                return Files.exists(file) && Files.readAllLines(file).size() >= count;
            } catch (IOException e) {
                return false;
            }
        });
    }

    private static boolean contains(Path file, String text) {
        try {
            return Files.exists(file) && Files.readString(file).contains(text);
        } catch (IOException e) {
            return false;
        }
    }

    private static void stopAndDetach(Logger logger, String name) {
        var appender = logger.getAppender(name);
        if (appender != null) {
            appender.stop(); // closes the file, and frees its name for the next test's appender
            logger.detachAppender(appender);
        }
    }

    @Test
    void bothFilesRotateBySizeAndKeepABoundedNumberOfArchives() throws Exception {
        Path logFile = dir.resolve("loadwise.log");
        Path accessFile = dir.resolve("access.log");
        LoggingSetup.apply(new LoggingConfig("info", null, logFile.toString(), AccessLogConfig.ofFile(accessFile.toString())), null,
                new LoggingSetup.Rotation(2_000, 2, 0));

        org.slf4j.Logger app = LoggerFactory.getLogger("io.loadwise.test.rotation");
        for (int i = 0; i < 500; i++) {
            AccessLog.http("127.0.0.1", "GET", "/page/" + i, 200, "n1", 100, 1);
            app.info("application line {}", i);
        }
        Await.until("the last access line", () -> contains(accessFile, "/page/499\""));

        for (Path file : new Path[] {logFile, accessFile}) {
            String name = file.getFileName().toString();
            try (var files = Files.list(dir)) {
                assertEquals(java.util.List.of(name, name + ".1", name + ".2"),
                        files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(name)).sorted().toList(),
                        "the live file and two archives, nothing older");
            }
            for (String suffix : new String[] {"", ".1", ".2"}) {
                long size = Files.size(dir.resolve(name + suffix));
                assertTrue(size > 0 && size <= 2_000 + 200, name + suffix + " is " + size + " bytes");
            }
        }
        assertTrue(Files.readString(accessFile).contains("\"GET /page/499\" 200 n1 100 1ms"), "the newest line is live");
        assertTrue(Files.readString(logFile).contains("application line 499"));
    }

    @Test
    void accessLinesEscapeWhatTheClientSent() throws Exception {
        Path accessFile = dir.resolve("access.log");
        LoggingSetup.apply(new LoggingConfig(null, null, null, AccessLogConfig.ofFile(accessFile.toString())), null);

        AccessLog.http("127.0.0.1", "GET", "/a\"b\u0001\\c\u007f", 400, null, -1, 0);
        AccessLog.http("127.0.0.1", null, null, 400, null, -1, 0);
        awaitLines(accessFile, 2);

        assertEquals(java.util.List.of("127.0.0.1 \"GET /a\\x22b\\x01\\x5cc\\x7f\" 400 - - 0ms",
                "127.0.0.1 \"- -\" 400 - - 0ms"),
                Files.readAllLines(accessFile).stream().map(l -> l.substring(l.indexOf(' ', 11) + 1)).toList());
        assertEquals("/plain", AccessLog.escape("/plain"));
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
