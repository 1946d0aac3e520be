package io.loadwise.console.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.loadwise.dispatcher.control.AgentStatus;
import io.loadwise.dispatcher.control.HealthStatus;
import io.loadwise.dispatcher.control.NodeStatus;
import io.loadwise.dispatcher.metrics.CounterReading;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Clusters page marks a node that registered itself, with its contexts, escaped. */
class RegisteredNodeBadgeTest {

    private static NodeStatus node() {
        return new NodeStatus("a", InetSocketAddress.createUnresolved("app", 80), null, 1, true, false, true,
                false, 0, 0, Double.NaN, CounterReading.ZERO, new AgentStatus(false, "unknown", null, null, -1, null),
                HealthStatus.NOT_CHECKED, false, 0, 1.0);
    }

    @Test
    void aConfiguredNodeHasNoBadge() {
        assertEquals("", ClustersPage.registration(node()));
    }

    @Test
    void aRegisteredNodeShowsItAndItsContexts() {
        assertEquals(" <span class=\"badge registered\" title=\"registered itself; not in the configuration file\">"
                + "registered</span> <span class=\"contexts\">/trade, /a&lt;b</span>",
                ClustersPage.registration(node().withRegistration(true, List.of("/trade", "/a<b"))));
    }

    @Test
    void aConfiguredNodeWithContextsShowsOnlyThem() {
        assertEquals(" <span class=\"contexts\">/static</span>",
                ClustersPage.registration(node().withRegistration(false, List.of("/static"))));
    }
}
