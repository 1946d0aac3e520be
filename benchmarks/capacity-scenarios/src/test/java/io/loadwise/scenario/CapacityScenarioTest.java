package io.loadwise.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CapacityScenarioTest {

    /** Which of heap, HTTP worker threads and JDBC pool a scenario halves on VCN3, as a list to compare in one go. */
    private static List<Boolean> halved(CapacityScenario scenario) {
        return List.of(scenario.halvesHeap(), scenario.halvesHttpThreads(), scenario.halvesJdbcPool());
    }

    @Test
    void eachScenarioHalvesExactlyItsResource() {
        assertEquals(List.of(false, false, false), halved(CapacityScenario.BASELINE));
        assertEquals(List.of(true, false, false), halved(CapacityScenario.HEAP));
        assertEquals(List.of(false, true, false), halved(CapacityScenario.HTTP_THREADS));
        assertEquals(List.of(false, false, true), halved(CapacityScenario.JDBC));
        assertEquals(List.of(true, true, true), halved(CapacityScenario.COMBINED));
    }

    @Test
    void keysAndTitlesAreTheReportsAndTheSweepFolders() {
        assertEquals(List.of("baseline", "heap", "http-threads", "jdbc", "combined"),
                Arrays.stream(CapacityScenario.values()).map(CapacityScenario::key).toList());
        assertEquals(List.of("Baseline (seed Table 10)", "JVM Heap Space (seed Table 11)",
                        "HTTP connection queue worker threads (seed Table 12)",
                        "JDBC database connection threads (seed Table 13)", "All Scenarios Combined (seed Table 14)"),
                Arrays.stream(CapacityScenario.values()).map(CapacityScenario::title).toList());
    }

    @Test
    void vcn1AndVcn2AreFullVcn3IsLast() {
        assertEquals(List.of("full", "full", "half"), CapacityScenario.nodes("full", "half"));
        assertEquals(CapacityScenario.NODES, CapacityScenario.nodes("full", "half").size());
    }

    @Test
    void oneScenarioByItsKeyOrItsNameInAnyCase() {
        for (CapacityScenario scenario : CapacityScenario.values()) {
            assertEquals(scenario, CapacityScenario.byKey(scenario.key()));
            assertEquals(scenario, CapacityScenario.byKey(scenario.name()));
        }
        assertEquals(CapacityScenario.HTTP_THREADS, CapacityScenario.byKey("HTTP-Threads"));
        assertEquals("unknown scenario 'disk'; known scenarios: baseline, heap, http-threads, jdbc, combined",
                assertThrows(IllegalArgumentException.class, () -> CapacityScenario.byKey("disk")).getMessage());
    }

    @Test
    void simulatesScenarioOptionTakesAListOrAll() {
        assertEquals(List.of(CapacityScenario.values()), CapacityScenario.parse(" ALL "));
        assertEquals(List.of(CapacityScenario.HEAP, CapacityScenario.JDBC), CapacityScenario.parse("heap, JDBC"));
        assertEquals("--scenario: unknown scenario 'disk' (baseline, heap, http-threads, jdbc, combined or all)",
                assertThrows(IllegalArgumentException.class, () -> CapacityScenario.parse("heap,disk")).getMessage());
    }
}
