package io.loadwise.console.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.control.AgentStatus;
import io.loadwise.dispatcher.control.HealthStatus;
import io.loadwise.dispatcher.control.NodeStatus;
import io.loadwise.dispatcher.metrics.CounterReading;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/** The overview's one-word node state names health checks, ejection, readiness and slow start. */
class OverviewHealthTest {

    private static NodeStatus node(boolean healthy, HealthStatus health, boolean ejected, double share) {
        return new NodeStatus("a", InetSocketAddress.createUnresolved("app", 80), null, 1, true, false, healthy,
                false, 0, 0, Double.NaN, CounterReading.ZERO, new AgentStatus(false, "unknown", null, null, -1, null),
                health, ejected, ejected ? 1_000_000 : 0, share);
    }

    @Test
    void aNodeDownByItsHealthCheckSaysWhy() {
        HealthStatus down = new HealthStatus(true, "down",
                new HealthStatus.LastCheck(1, false, 500, 3, "status 500 not in 200-399"));
        assertEquals("down (health check: status 500 not in 200-399)", OverviewPage.health(node(false, down, false, 1)));
    }

    @Test
    void aNodeWaitingForItsApplicationSaysSo() {
        NodeStatus waiting = new NodeStatus("a", InetSocketAddress.createUnresolved("app", 80), null, 1, true, false,
                false, false, 0, 0, Double.NaN, CounterReading.ZERO,
                new AgentStatus(false, "unknown", "agent answered HTTP 404", null, -1, null), HealthStatus.NOT_CHECKED,
                false, 0, 1, false, java.util.List.of(), true, NodeStatus.GROUP_ACTIVE);
        assertEquals("down (application not ready)", OverviewPage.health(waiting));
    }

    @Test
    void anEjectedNodeSaysUntilWhen() {
        assertTrue(OverviewPage.health(node(false, HealthStatus.NOT_CHECKED, true, 1)).startsWith("ejected until "));
    }

    @Test
    void aRampingNodeShowsItsShare() {
        assertEquals("up (slow start 40 %)", OverviewPage.health(node(true, HealthStatus.NOT_CHECKED, false, 0.4)));
        assertEquals("up", OverviewPage.health(node(true, HealthStatus.NOT_CHECKED, false, 1)));
    }
}
