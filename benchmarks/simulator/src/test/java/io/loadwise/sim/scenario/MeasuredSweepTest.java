package io.loadwise.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.loadwise.scenario.Vcn3Queue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MeasuredSweepTest {

    /** The committed sweep of 2026-11-22 (surefire runs in the module's folder). */
    static final Path SWEEP = Path.of("../results/2026-11-22-sweep");

    @Test
    void readsTheCommittedSweep() throws IOException {
        MeasuredSweep sweep = MeasuredSweep.read(SWEEP);
        assertEquals(List.of("baseline", "heap", "http-threads", "jdbc", "combined"), sweep.scenarios());
        assertEquals(2, sweep.cores(), "README: Machine: 2 CPUs");
        assertEquals(1, sweep.maxRuns());
        assertEquals(0, sweep.erroredRuns());
        for (String scenario : sweep.scenarios()) {
            assertEquals(12, sweep.scenario(scenario).size(), scenario);
        }
        MeasuredSweep.Run rr = sweep.scenario("heap").get("http-round-robin").get(0);
        assertEquals(12358, rr.samples());
        assertEquals(0, rr.failed());
        assertEquals(411.193, rr.throughput(), 0.001);
        assertEquals(187, sweep.scenario("combined").get("http-fastest-response-time").get(0).failed());
        assertEquals(499.93, sweep.meanHttpThroughput(), 0.01, "45 HTTP cells");

        TestbedSettings s = sweep.settings(TestbedSettings.sweepDefaults(60, 0.1));
        assertEquals(30, s.threads());
        assertEquals(0.1, s.scale());
        assertEquals(new NodeResources(96, 12, 12, 10), s.fullNode());
        assertEquals(450, s.sessionKb());
        assertEquals(10, s.sessionTimeoutS());
        assertEquals(Vcn3Queue.SEED, s.vcn3Queue(), "a sweep.json without vcn3Queue ran the seed's queue");
        assertEquals(1000, s.connectionTtlMs());
        assertEquals(30, s.totalSeconds());
        assertEquals("per-connection", sweep.httpBalance());
    }

    @Test
    void readsRepeatedRunsAndSkipsErroredOnes(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("sweep.json"), "{\"scenarios\":[\"heap\"],\"rows\":[\"http-round-robin\"],"
                + "\"threads\":60,\"scale\":0.5,\"fullNode\":{\"heapMb\":128,\"httpThreads\":12,\"acceptQueue\":12,"
                + "\"jdbcPool\":10},\"sessionStateKb\":90,\"sessionTimeoutSeconds\":50,\"connectionTtlMs\":1000,\"repeats\":3}");
        Path cell = Files.createDirectories(dir.resolve("cells/heap/http-round-robin"));
        Files.writeString(cell.resolve("run-1.json"), "{\"error\":null,\"samples\":100,\"failed\":2,\"throughput\":10.0}");
        Files.writeString(cell.resolve("run-2.json"), "{\"error\":null,\"samples\":120,\"failed\":4,\"throughput\":12.0}");
        Files.writeString(cell.resolve("run-3.json"), "{\"error\":\"JMeter exited 1\",\"samples\":0,\"failed\":0,\"throughput\":0}");
        MeasuredSweep sweep = MeasuredSweep.read(dir);
        assertEquals(2, sweep.scenario("heap").get("http-round-robin").size());
        assertEquals(1, sweep.erroredRuns());
        assertEquals(2, sweep.maxRuns());
        assertEquals(11.0, sweep.meanHttpThroughput(), 1e-9);
        assertEquals(new NodeResources(128, 12, 12, 10), sweep.settings(TestbedSettings.sweepDefaults(60, 0.1)).fullNode());
    }

    @Test
    void aFolderWithoutSweepJsonIsAUsageError(@TempDir Path dir) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MeasuredSweep.read(dir));
        assertEquals("--compare: " + dir + " is not a sweep folder (no sweep.json)", e.getMessage());
    }
}
