package io.loadwise.dispatcher.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.loadwise.dispatcher.testsupport.Configs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class ConfigStoreTest {

    @TempDir
    Path dir;

    @Test
    void writesPrettyJsonAndKeepsThePreviousFileAsBackup() throws Exception {
        Path file = dir.resolve("loadwise.json");
        ConfigStore store = new ConfigStore(file);
        LoadwiseConfig first = Configs.config(Configs.tcp("a", "test-round-robin", Configs.nodes("127.0.0.1:9001")));
        LoadwiseConfig second = Configs.config(Configs.tcp("b", "test-round-robin", Configs.nodes("127.0.0.1:9002")));

        store.write(first);
        assertFalse(Files.exists(store.backup()), "no backup before there was a previous file");
        String firstText = Files.readString(file);
        assertTrue(firstText.contains("\n  \"clusters\" : [ {"), firstText);

        store.write(second);
        assertEquals(second, ConfigLoader.load(file));
        assertEquals(firstText, Files.readString(store.backup()));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(2, files.count(), "temporary files are cleaned up");
        }
    }

    @Test
    void aFailedWriteLeavesTheFileAlone() throws Exception {
        Path file = dir.resolve("loadwise.json");
        ConfigStore store = new ConfigStore(file);
        LoadwiseConfig config = Configs.config(Configs.tcp("a", "test-round-robin", Configs.nodes("127.0.0.1:9001")));
        store.write(config);
        String before = Files.readString(file);
        // A non-empty directory where the backup goes makes the write fail half-way.
        Files.createDirectory(store.backup());
        Files.writeString(store.backup().resolve("blocker"), "x");
        LoadwiseConfig other = Configs.config(Configs.tcp("b", "test-round-robin", Configs.nodes("127.0.0.1:9002")));
        assertThrows(java.io.IOException.class, () -> store.write(other));
        assertEquals(before, Files.readString(file));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(2, files.count(), "no temporary file left behind");
        }
    }

    @Test
    void openingTheStoreRemovesTempFilesThatAnInterruptedWriteLeft() throws Exception {
        Path file = dir.resolve("loadwise.json");
        new ConfigStore(file).write(Configs.config(Configs.tcp("a", "test-round-robin", Configs.nodes("127.0.0.1:9001"))));
        String content = Files.readString(file);
        // What a write killed between creating its temporary file and renaming it leaves: the same names.
        Path stale1 = Files.createTempFile(dir, ".loadwise.json.", ".tmp");
        Path stale2 = Files.createTempFile(dir, ".loadwise.json.", ".tmp");
        Files.writeString(stale1, "{\"half\": ");
        // Not this store's: another config's temp file, other names, and a directory with a matching name.
        Path otherConfig = Files.createTempFile(dir, ".other.json.", ".tmp");
        Path notDigits = Files.writeString(dir.resolve(".loadwise.json.mine.tmp"), "keep");
        Path directory = Files.createDirectory(dir.resolve(".loadwise.json.123.tmp"));

        Logger logger = (Logger) LoggerFactory.getLogger(ConfigStore.class);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        Level before = logger.getLevel();
        logger.setLevel(Level.INFO);
        logger.addAppender(lines);
        try {
            new ConfigStore(file);
        } finally {
            logger.detachAppender(lines);
            logger.setLevel(before);
        }

        assertFalse(Files.exists(stale1));
        assertFalse(Files.exists(stale2));
        assertTrue(Files.exists(otherConfig) && Files.exists(notDigits) && Files.isDirectory(directory));
        assertEquals(content, Files.readString(file), "the configuration itself is untouched");
        assertEquals(1, lines.list.size(), lines.list.toString());
        ILoggingEvent line = lines.list.get(0);
        assertEquals(Level.INFO, line.getLevel());
        String message = line.getFormattedMessage();
        assertTrue(message.startsWith("config: removed 2 temporary files left by an interrupted write of " + file),
                message);
        assertTrue(message.contains(stale1.getFileName().toString()) && message.contains(stale2.getFileName().toString()),
                message);
    }

    @Test
    void nothingStaleMeansNoLogLine() throws Exception {
        Path file = dir.resolve("loadwise.json");
        ConfigStore store = new ConfigStore(file);
        store.write(Configs.config(Configs.tcp("a", "test-round-robin", Configs.nodes("127.0.0.1:9001"))));
        assertEquals(List.of(), store.removeStaleTempFiles());
    }
}
