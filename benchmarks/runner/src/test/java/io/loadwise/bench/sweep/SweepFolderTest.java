package io.loadwise.bench.sweep;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A results folder resumes only the sweep whose settings it records. */
class SweepFolderTest {

    @TempDir
    Path out;

    private static SweepSettings settings(int threads, String balance) throws Exception {
        // from JSON, as sweep.json is read back: fields the test does not name keep their defaults
        return SweepRunner.JSON.readValue("{\"name\":\"calibration\",\"scenarios\":[\"heap\"],\"rows\":[\"http-round-robin\"],"
                + "\"scale\":0.1,\"threads\":" + threads + ",\"httpBalance\":\"" + balance + "\",\"repeats\":1,\"seed\":16}",
                SweepSettings.class);
    }

    @Test
    void aNewFolderOrOneWithTheSameSettingsIsResumed() throws Exception {
        assertDoesNotThrow(() -> SweepRunner.requireSameSettings(out, settings(50, "per-connection")));
        SweepRunner.JSON.writeValue(out.resolve("sweep.json").toFile(), settings(50, "per-connection"));
        assertDoesNotThrow(() -> SweepRunner.requireSameSettings(out, settings(50, "per-connection")));
    }

    @Test
    void aFolderWithOtherSettingsIsRefusedAndKeepsItsManifest() throws Exception {
        SweepRunner.JSON.writeValue(out.resolve("sweep.json").toFile(), settings(50, "per-connection"));
        String before = Files.readString(out.resolve("sweep.json"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SweepRunner.requireSameSettings(out, settings(50, "per-request")));
        assertTrue(e.getMessage().contains("holds a sweep with other settings"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SweepRunner.requireSameSettings(out, settings(60, "per-connection")));
        assertTrue(Files.readString(out.resolve("sweep.json")).equals(before));
    }
}
