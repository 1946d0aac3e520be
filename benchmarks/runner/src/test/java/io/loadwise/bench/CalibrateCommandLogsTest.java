package io.loadwise.bench;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The calibration finds VCN3's OutOfMemoryError in either provisioner's log layout, and only VCN3's. */
class CalibrateCommandLogsTest {

    @TempDir
    Path cell;

    private void log(String relative, String text) throws IOException {
        Path file = cell.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    @Test
    void anEmbeddedTomcatNodeLogsToItsOwnFile() throws IOException {
        log("nodes/VCN3/node.log", "12:00:01 ERROR worker: java.lang.OutOfMemoryError: Java heap space\n");
        assertTrue(CalibrateCommand.outOfMemory(cell));
    }

    @Test
    void aGlassFishDomainLogsToItsServerLog() throws IOException {
        log("nodes/domains/VCN3/logs/server.log", "[#|SEVERE|java.lang.OutOfMemoryError: Java heap space|#]\n");
        assertTrue(CalibrateCommand.outOfMemory(cell));
    }

    @Test
    void anotherNodesErrorOrACleanLogIsNoOutOfMemoryOfVcn3() throws IOException {
        assertFalse(CalibrateCommand.outOfMemory(cell), "no logs at all");
        log("nodes/domains/VCN1/logs/server.log", "java.lang.OutOfMemoryError: Java heap space\n");
        log("nodes/domains/VCN3/logs/server.log", "[#|INFO|trade app ready|#]\n");
        log("nodes/VCN3/node.log", "12:00:01 INFO started\n");
        assertFalse(CalibrateCommand.outOfMemory(cell));
    }
}
