package io.loadwise.console.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.control.GroupStatus;
import org.junit.jupiter.api.Test;

/** The overview's Priority groups line: only when a lower group is in use or a group panics. */
class OverviewGroupsTest {

    @Test
    void nothingWhileThePreferredGroupServes() {
        assertEquals("", OverviewPage.groups(null));
        assertEquals("", OverviewPage.groups(new GroupStatus(0, false, false, 3, 4)));
    }

    @Test
    void theBackupGroupInUseIsSaid() {
        assertEquals("<dt>Priority groups</dt><dd class=\"groups\">In use down to the backup group (1 of 3 nodes"
                + " usable)</dd>", OverviewPage.groups(new GroupStatus(1, true, false, 1, 3)));
    }

    @Test
    void panicIsFlagged() {
        String line = OverviewPage.groups(new GroupStatus(0, false, true, 1, 4));
        assertTrue(line.contains("In use down to priority 0 (1 of 4 nodes usable)"), line);
        assertTrue(line.contains("<span class=\"bad\">panic: picking every node that accepts connections</span>"),
                line);
    }
}
