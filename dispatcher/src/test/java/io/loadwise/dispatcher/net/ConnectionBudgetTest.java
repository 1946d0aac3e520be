package io.loadwise.dispatcher.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ConnectionBudgetTest {

    @Test
    void theDefaultIsHalfOfTheDescriptorsLeftAfterTheReserve() {
        assertEquals(9_872, ConnectionBudget.defaultFor(20_000), "(20000 - 256) / 2");
        assertEquals(524_160, ConnectionBudget.defaultFor(1_048_576));
        assertEquals(384, ConnectionBudget.defaultFor(1_024));
    }

    @Test
    void theDefaultHasAFloorACeilingAndAFallbackWhereTheLimitIsUnknown() {
        assertEquals(64, ConnectionBudget.defaultFor(256));
        assertEquals(64, ConnectionBudget.defaultFor(0));
        assertEquals(10_000_000, ConnectionBudget.defaultFor(Long.MAX_VALUE), "ulimit -n unlimited");
        assertEquals(10_000, ConnectionBudget.defaultFor(-1), "not a Unix JVM");
    }

    @Test
    void aConfiguredLimitWinsAndIsFlaggedWhenTheDescriptorsCannotCoverIt() {
        ConnectionBudget configured = ConnectionBudget.resolve(5_000, 4_096);
        assertEquals(5_000, configured.limit());
        assertTrue(configured.configured());
        assertTrue(configured.exceedsDescriptors(), "5000 pairs of sockets need more than 4096 descriptors");
        assertFalse(ConnectionBudget.resolve(1_000, 4_096).exceedsDescriptors());
        assertFalse(ConnectionBudget.resolve(null, 4_096).exceedsDescriptors());
        assertEquals("1920 (default: half of the file-descriptor limit 4096 less 256 reserved; "
                + "set maxClientConnections to change it)", ConnectionBudget.resolve(null, 4_096).describe());
        assertEquals("5000 (maxClientConnections; file-descriptor limit 4096)", configured.describe());
    }

    @Test
    void thisProcessReportsItsDescriptorLimit() {
        assertTrue(ConnectionBudget.descriptorLimitOfThisProcess() > 0, "a Unix JVM knows ulimit -n");
        assertEquals(ConnectionBudget.defaultFor(ConnectionBudget.descriptorLimitOfThisProcess()),
                ConnectionBudget.resolve(null).limit());
    }

    @Test
    void aLimitBelowOneIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ConnectionLimit("x", 0));
        assertEquals("x: connection limit must be at least 1, got 0", e.getMessage());
    }
}
