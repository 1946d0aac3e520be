package io.loadwise.dispatcher.health;

import static io.loadwise.dispatcher.cluster.HealthState.DOWN;
import static io.loadwise.dispatcher.cluster.HealthState.UNKNOWN;
import static io.loadwise.dispatcher.cluster.HealthState.UP;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.loadwise.dispatcher.cluster.HealthState;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HealthTrackerTest {

    private static List<HealthState> run(HealthTracker t, String checks) {
        List<HealthState> states = new ArrayList<>();
        for (char c : checks.toCharArray()) {
            states.add(t.record(c == '+'));
        }
        return states;
    }

    @Test
    void aTrackerThatTakesOverAnotherGoesOnWithItsStateAndCounters() {
        HealthTracker before = new HealthTracker(3, 2);
        assertEquals(List.of(UP, UP, DOWN, DOWN, DOWN), run(before, "+--++")); // down, 2 of 3 passes towards up
        HealthTracker rebuilt = new HealthTracker(3, 2); // the same node's check in a rebuilt cluster
        rebuilt.adopt(before);
        assertEquals(DOWN, rebuilt.state());
        assertEquals(List.of(UP), run(rebuilt, "+"), "the third pass in a row, counting the two before the reload");

        HealthTracker up = new HealthTracker(3, 2);
        run(up, "+-"); // up, one failure towards fall
        HealthTracker next = new HealthTracker(3, 2);
        next.adopt(up);
        assertEquals(List.of(DOWN), run(next, "-"), "the second failure in a row, counting the one before");
    }

    @Test
    void theFirstPassMakesAnUnknownNodeUp() {
        assertEquals(List.of(UP), run(new HealthTracker(2, 3), "+"));
    }

    @Test
    void fallFailuresInARowTakeItDownAndRisePassesInARowBringItBack() {
        HealthTracker u = new HealthTracker(2, 3);
        assertEquals(List.of(UP, UP, UP, DOWN, DOWN, DOWN, DOWN, UP), run(u, "+---+-++"));
    }

    @Test
    void aFailureBetweenPassesRestartsTheCount() {
        HealthTracker t = new HealthTracker(3, 1);
        assertEquals(List.of(DOWN, DOWN, DOWN, DOWN, DOWN, DOWN, UP), run(t, "-++-+++"));
    }

    @Test
    void anUnknownNodeThatFailsGoesDownAfterFall() {
        assertEquals(List.of(UNKNOWN, DOWN), run(new HealthTracker(2, 2), "--"));
    }

    @Test
    void riseAndFallMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new HealthTracker(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new HealthTracker(1, 0));
    }
}
