package io.loadwise.bench.sweep;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The order in which a sweep runs its cells: {@code repeats} rounds, each holding every (scenario,
 * policy row) cell exactly once in a random order drawn from {@code seed}. A randomised complete block
 * design: the machine's drift over hours (other load, heat, page cache) falls on every policy alike
 * instead of on whichever ran last, and the rounds keep the repeats of a cell spread over the whole sweep.
 * The same seed gives the same order, so an interrupted sweep resumes in it.
 */
public final class RunOrder {

    /**
     * One run of one cell.
     *
     * @param position 1-based place in the sweep
     * @param repeat   1-based repeat of this cell (its round)
     */
    public record Run(int position, int repeat, String scenario, String row) {
    }

    private RunOrder() {
    }

    public static List<Run> of(List<String> scenarios, List<String> rows, int repeats, long seed) {
        if (repeats < 1) {
            throw new IllegalArgumentException("repeats must be at least 1, got " + repeats);
        }
        List<String[]> cells = new ArrayList<>();
        for (String scenario : scenarios) {
            for (String row : rows) {
                cells.add(new String[] {scenario, row});
            }
        }
        Random random = new Random(seed);
        List<Run> order = new ArrayList<>();
        for (int repeat = 1; repeat <= repeats; repeat++) {
            List<String[]> round = new ArrayList<>(cells);
            Collections.shuffle(round, random);
            for (String[] cell : round) {
                order.add(new Run(order.size() + 1, repeat, cell[0], cell[1]));
            }
        }
        return List.copyOf(order);
    }
}
