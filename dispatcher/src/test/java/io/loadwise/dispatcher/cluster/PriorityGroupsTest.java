package io.loadwise.dispatcher.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Group activation and panic, table-driven. A layout names the groups from the preferred one, separated by
 * {@code |}, the last one the backup group when it starts with {@code b:}; each letter is a node: {@code u}
 * usable, {@code d} enabled but not healthy, {@code x} disabled or draining. The expected gates use the same
 * positions: {@code A} active, {@code S} standby, {@code P} panic.
 */
class PriorityGroupsTest {

    static Stream<Arguments> cases() {
        return Stream.of(
                // layout, minActive, panic %, gates, active priority, backup active, panic
                Arguments.of("uuuu", 1, 50, "AAAA", 0, false, false),
                Arguments.of("uudd", 1, 50, "AAAA", 0, false, false), // 50 % usable is not below 50 %
                Arguments.of("uddd", 1, 50, "PPPP", 0, false, true),
                Arguments.of("dddd", 1, 50, "PPPP", 0, false, true), // all down: every node that accepts
                Arguments.of("uddd", 1, 0, "AAAA", 0, false, false), // 0: panic off
                Arguments.of("dddd", 1, 0, "AAAA", 0, false, false),
                Arguments.of("uuud", 1, 100, "PPPP", 0, false, true), // 100: panic as soon as one is out
                Arguments.of("uuuu", 1, 100, "AAAA", 0, false, false),
                Arguments.of("uuxx", 1, 50, "AAAA", 0, false, false), // disabled nodes count nowhere
                Arguments.of("udxx", 1, 50, "AAAA", 0, false, false),
                // a backup group takes over when the primaries are all down, and no panic while it is whole
                Arguments.of("uu|b:uu", 1, 50, "AASS", 0, false, false),
                Arguments.of("dd|b:uu", 1, 50, "AAAA", 1, true, false),
                Arguments.of("ud|b:uu", 1, 50, "AASS", 0, false, false),
                // minActive 2: one usable primary is too few, the backups join it
                Arguments.of("ud|b:uu", 2, 50, "AAAA", 1, true, false),
                Arguments.of("uu|b:uu", 2, 50, "AASS", 0, false, false),
                // the groups' shares add up to less than 100 %: a group below the threshold panics
                Arguments.of("dddd|b:ud", 1, 50, "PPPPAA", 1, true, true),
                Arguments.of("dddd|b:dd", 1, 50, "PPPPPP", 1, true, true),
                Arguments.of("dddd|b:dd", 1, 0, "AAAAAA", 1, true, false),
                // the preferred group below the threshold, but a healthy standby group: Envoy disregards panic
                Arguments.of("uddd|b:uu", 1, 50, "AAAASS", 0, false, false),
                // three priorities, cumulative activation
                Arguments.of("d|d|u|u", 1, 50, "AAAS", 2, false, false),
                Arguments.of("d|u|u|u", 2, 50, "AAAS", 2, false, false),
                Arguments.of("u|u|u|b:u", 3, 50, "AAAS", 2, false, false),
                Arguments.of("d|d|d|b:u", 1, 50, "AAAA", 3, true, false),
                // minActive above the node count: every group, always
                Arguments.of("uu|uu", 10, 50, "AAAA", 1, false, false));
    }

    @ParameterizedTest(name = "{0} minActive {1} panic {2}%")
    @MethodSource("cases")
    void decides(String layout, int minActive, int panicPercent, String gates, int activePriority,
            boolean backupActive, boolean panic) {
        Layout l = Layout.parse(layout);
        PriorityGroups.Verdict v = new PriorityGroups(l.priorities, l.backup, minActive, panicPercent)
                .decide(l.counted, l.usable);
        StringBuilder actual = new StringBuilder();
        for (GroupGate gate : v.gates()) {
            actual.append(gate.name().charAt(0));
        }
        assertEquals(gates, actual.toString(), "gates");
        assertEquals(activePriority, v.activePriority(), "active priority");
        assertEquals(backupActive, v.backupActive(), "backup active");
        assertEquals(panic, v.panic(), "panic");
    }

    @Test
    void priorityNumbersNeedNotBeConsecutive() {
        PriorityGroups groups = new PriorityGroups(new int[] {10, 3, 10}, new boolean[3], 1, 50);
        PriorityGroups.Verdict v = groups.decide(new boolean[] {true, true, true}, new boolean[] {true, false, true});
        assertEquals(10, v.activePriority(), "priority 3 is preferred; with it down, 10 is in use");
        assertEquals(2, v.usableNodes());
        assertEquals(3, v.countedNodes());
        assertTrue(groups.grouped());
    }

    @Test
    void withoutPrioritiesThereIsOneGroup() {
        PriorityGroups groups = new PriorityGroups(new int[3], new boolean[3], 1, 50);
        assertFalse(groups.grouped());
        assertEquals(groups, new PriorityGroups(new int[3], new boolean[3], 1, 50));
        assertNotEquals(groups, new PriorityGroups(new int[3], new boolean[3], 1, 40));
        assertNotEquals(groups, new PriorityGroups(new int[] {0, 0, 1}, new boolean[3], 1, 50));
    }

    /** The node arrays a layout string describes. */
    private record Layout(int[] priorities, boolean[] backup, boolean[] counted, boolean[] usable) {

        static Layout parse(String layout) {
            String[] groups = layout.split("\\|");
            String letters = layout.replace("|", "").replace("b:", "");
            Layout l = new Layout(new int[letters.length()], new boolean[letters.length()],
                    new boolean[letters.length()], new boolean[letters.length()]);
            int i = 0;
            for (int g = 0; g < groups.length; g++) {
                boolean backup = groups[g].startsWith("b:");
                for (char c : groups[g].replace("b:", "").toCharArray()) {
                    l.priorities[i] = backup ? 0 : g;
                    l.backup[i] = backup;
                    l.counted[i] = c != 'x';
                    l.usable[i] = c == 'u';
                    i++;
                }
            }
            return l;
        }
    }
}
