package io.loadwise.bench.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The benchmark's nodes must show policies the loads the benchmark set up, through the real counters. */
class BenchNodeTest {

    @Test
    void showsTheConnectionsAndResponseTimeItWasBuiltWith() {
        BenchNode node = new BenchNode(4, 3, 7, 23, null);
        assertEquals("VCN5", node.name());
        assertEquals(3, node.weight());
        assertEquals(7, node.activeConnections());
        assertEquals(7, node.inFlightRequests());
        assertEquals(23.0, node.recentResponseTimeMillis(), 1e-9);
    }

    @Test
    void anIdleNodeStillHasItsResponseTime() {
        BenchNode node = new BenchNode(0, 1, 0, 5, null);
        assertEquals(0, node.activeConnections());
        assertEquals(0, node.inFlightRequests());
        assertEquals(5.0, node.recentResponseTimeMillis(), 1e-9);
    }
}
