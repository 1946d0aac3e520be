package io.loadwise.dispatcher.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.testsupport.Configs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
}
