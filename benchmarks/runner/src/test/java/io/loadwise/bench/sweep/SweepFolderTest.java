package io.loadwise.bench.sweep;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadwise.scenario.Vcn3Queue;
import io.loadwise.sim.scenario.MeasuredSweep;
import io.loadwise.sim.scenario.TestbedSettings;
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

    /** A committed sweep run with {@code --vcn3-queue half} (surefire runs in the module's folder). */
    private static final Path HALF_QUEUE_SWEEP = Path.of("../results/2026-11-24-sweep-calibrated/sweep.json");

    @Test
    void aRecordedVcn3QueueResumesItsFolderAndIsTheSimulatorsToo() throws Exception {
        Files.copy(HALF_QUEUE_SWEEP, out.resolve("sweep.json"));
        SweepSettings recorded = SweepRunner.JSON.readValue(HALF_QUEUE_SWEEP.toFile(), SweepSettings.class);
        assertEquals("half", recorded.vcn3Queue());
        assertEquals(Vcn3Queue.HALF, recorded.capacity().vcn3Queue());
        assertDoesNotThrow(() -> SweepRunner.requireSameSettings(out, recorded));
        assertEquals(Vcn3Queue.HALF, MeasuredSweep.read(out).settings(TestbedSettings.sweepDefaults(60, 0.1)).vcn3Queue(),
                "simulate --compare models the queue the sweep ran");

        SweepRunner.JSON.writeValue(out.resolve("sweep.json").toFile(), recorded);
        assertEquals(SweepRunner.JSON.readTree(HALF_QUEUE_SWEEP.toFile()), SweepRunner.JSON.readTree(
                out.resolve("sweep.json").toFile()), "written back field for field, vcn3Queue included");

        ObjectNode seedQueue = (ObjectNode) SweepRunner.JSON.readTree(HALF_QUEUE_SWEEP.toFile());
        seedQueue.put("vcn3Queue", "seed");
        SweepSettings other = SweepRunner.JSON.treeToValue(seedQueue, SweepSettings.class);
        assertThrows(IllegalArgumentException.class, () -> SweepRunner.requireSameSettings(out, other),
                "the other queue is another sweep");
    }
}
