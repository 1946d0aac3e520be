package io.loadwise.bench.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RunOrderTest {

    private static final List<String> SCENARIOS = List.of("baseline", "heap", "http-threads", "jdbc", "combined");
    private static final List<String> ROWS = List.of("tcp-random", "http-round-robin", "http-static-wrr",
            "http-jvm-aware", "http-least-connections", "http-adaptive");

    @Test
    void everyCellRunsExactlyNTimesWithItsRepeatsNumbered() {
        List<RunOrder.Run> order = RunOrder.of(SCENARIOS, ROWS, 5, 42);
        assertEquals(5 * 5 * 6, order.size());
        Map<String, List<Integer>> repeats = new HashMap<>();
        for (RunOrder.Run run : order) {
            repeats.computeIfAbsent(run.scenario() + "/" + run.row(), k -> new java.util.ArrayList<>()).add(run.repeat());
        }
        assertEquals(30, repeats.size());
        repeats.values().forEach(r -> assertEquals(List.of(1, 2, 3, 4, 5), r));
        assertEquals(IntStream.rangeClosed(1, order.size()).boxed().toList(),
                order.stream().map(RunOrder.Run::position).toList());
    }

    @Test
    void everyRoundHoldsEveryCellOnceSoTheRepeatsInterleave() {
        List<RunOrder.Run> order = RunOrder.of(SCENARIOS, ROWS, 3, 7);
        int cells = SCENARIOS.size() * ROWS.size();
        for (int round = 0; round < 3; round++) {
            Set<String> seen = new HashSet<>();
            for (RunOrder.Run run : order.subList(round * cells, (round + 1) * cells)) {
                assertEquals(round + 1, run.repeat());
                seen.add(run.scenario() + "/" + run.row());
            }
            assertEquals(cells, seen.size());
        }
    }

    @Test
    void policiesAndScenariosAreInterleavedNotBlocked() {
        List<RunOrder.Run> round = RunOrder.of(SCENARIOS, ROWS, 1, 42);
        // in a blocked (nested-loop) order a row's runs would be 6 apart, a scenario's consecutive
        long scenarioChanges = IntStream.range(1, round.size())
                .filter(i -> !round.get(i).scenario().equals(round.get(i - 1).scenario())).count();
        assertTrue(scenarioChanges > SCENARIOS.size(), "scenarios switch often: " + scenarioChanges);
        List<String> firstRows = round.subList(0, ROWS.size()).stream().map(RunOrder.Run::row).distinct().toList();
        assertTrue(firstRows.size() > 1, "the first runs are not all one policy");
        assertNotEquals(nested(), round.stream().map(r -> r.scenario() + "/" + r.row()).toList());
    }

    private static List<String> nested() {
        return SCENARIOS.stream().flatMap(s -> ROWS.stream().map(r -> s + "/" + r)).toList();
    }

    @Test
    void theSeedFixesTheOrder() {
        assertEquals(RunOrder.of(SCENARIOS, ROWS, 5, 16), RunOrder.of(SCENARIOS, ROWS, 5, 16));
        assertNotEquals(RunOrder.of(SCENARIOS, ROWS, 5, 16), RunOrder.of(SCENARIOS, ROWS, 5, 17));
    }

    @Test
    void zeroRepeatsAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RunOrder.of(SCENARIOS, ROWS, 0, 1));
        assertEquals("repeats must be at least 1, got 0", e.getMessage());
    }
}
