package io.loadwise.dispatcher.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigValidator;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.control.AgentStatus;
import io.loadwise.dispatcher.control.ClusterStatus;
import io.loadwise.dispatcher.control.NodeStatus;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.policy.AgentSample;
import io.loadwise.policy.PolicyRegistry;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What {@link io.loadwise.dispatcher.control.ClusterControl} reads: copies of a real dispatcher's state,
 * taken when asked. No traffic is needed (nothing listens on the nodes' addresses).
 */
class ClusterStatusTest {

    private static final String CONFIG = """
            {"admin": {"token": "test-token-0123456789"},
             "clusters": [
               {"name": "tunnels", "mode": "tcp", "listen": "127.0.0.1:0", "policy": "round-robin",
                "nodes": [{"name": "a", "address": "127.0.0.1:1"}, {"name": "b", "address": "127.0.0.1:2", "weight": 2}]},
               {"name": "web", "mode": "http", "listen": "127.0.0.1:0", "policy": "round-robin",
                "agentExpiryMs": 600000,
                "nodes": [{"name": "a", "address": "127.0.0.1:3", "route": "ra"}, {"name": "b", "address": "127.0.0.1:4"}]}]}
            """;

    private Transport transport;
    private Dispatcher dispatcher;

    @BeforeEach
    void start() throws Exception {
        PolicyRegistry policies = PolicyRegistry.load();
        LoadwiseConfig config = ConfigLoader.parse(CONFIG);
        new ConfigValidator(policies).check(config);
        transport = new Transport(1);
        dispatcher = new Dispatcher(config, null, policies, transport, new ModeListenerFactory());
        dispatcher.start("test-token-0123456789", false);
    }

    @AfterEach
    void stop() {
        dispatcher.close();
        transport.close();
    }

    @Test
    void aStatusIsACopyTakenWhenAskedFor() throws Exception {
        ClusterStatus before = dispatcher.clusterStatus("tunnels");
        dispatcher.updateNode("tunnels", "b", false, 5, true);

        NodeStatus old = before.node("b");
        assertEquals(2, old.weight(), "a status already read does not follow the dispatcher");
        assertTrue(old.enabled() && !old.draining() && old.inService());
        NodeStatus now = dispatcher.clusterStatus("tunnels").node("b");
        assertEquals(5, now.weight());
        assertFalse(now.enabled());
        assertTrue(now.draining());
        assertFalse(now.inService());
        assertEquals(5, dispatcher.clusterStatus("tunnels").config().nodes().get(1).weight(), "the config in force");
    }

    @Test
    void listsTheRunningClustersInConfigurationOrder() {
        assertEquals(List.of("tunnels", "web"),
                dispatcher.clusterStatuses().stream().map(ClusterStatus::name).toList());
        assertNull(dispatcher.clusterStatus("nope"));
        assertNull(dispatcher.clusterStatus("web").node("nope"));
    }

    @Test
    void readsListenerPolicyAndAffinity() {
        ClusterStatus web = dispatcher.clusterStatus("web");
        assertEquals(dispatcher.boundAddress("web"), web.bound());
        assertNotNull(web.bound());
        assertEquals("round-robin", web.policy().id());
        assertEquals(Set.of(), web.policy().inputs());
        assertFalse(web.policy().readsAgentMetrics());
        assertEquals(0, web.affinity().hits() + web.affinity().misses() + web.affinity().unpinned());
        assertNull(dispatcher.clusterStatus("tunnels").affinity(), "tcp has no affinity");
        assertEquals("ra", web.node("a").route());
        assertEquals(3, web.node("a").address().getPort());
        assertTrue(web.node("a").healthy() && !web.node("a").connectDown());
    }

    @Test
    void anEjectedNodeIsUnhealthyButNotConnectDown() {
        dispatcher.cluster("web").node("a").setEjected(true, 4_000_000_000_000L);
        NodeStatus a = dispatcher.clusterStatus("web").node("a");
        assertTrue(a.ejected());
        assertFalse(a.healthy());
        assertFalse(a.connectDown(), "connectDown names a connect failure only, not every reason to be out");
    }

    @Test
    void readsWhatIsKnownOfEachAgent() {
        AgentSample sample = new AgentSample(1_000L, AgentSample.Source.POLL, Map.of("JVM_HEAP_USED%", 50.0));
        dispatcher.cluster("web").node("a").updateAgentSample(sample);
        ClusterStatus web = dispatcher.clusterStatus("web");

        AgentStatus a = web.node("a").agent();
        assertTrue(a.ok());
        assertEquals("ok", a.state());
        assertNull(a.problem());
        assertSame(sample, a.latestSample());
        assertSame(sample, a.freshSample());
        assertTrue(a.sampleAgeMillis() >= 0);
        assertNotNull(a.polling(), "http clusters are monitored");

        AgentStatus b = web.node("b").agent();
        assertFalse(b.ok());
        assertEquals("unknown", b.state());
        assertNotNull(b.problem());
        assertNull(b.freshSample());
        assertEquals(-1, b.sampleAgeMillis());
        assertNull(dispatcher.clusterStatus("tunnels").node("a").agent().polling(), "tcp clusters are not");
    }
}
