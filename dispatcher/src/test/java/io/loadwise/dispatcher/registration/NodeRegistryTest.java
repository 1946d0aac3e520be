package io.loadwise.dispatcher.registration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.config.RegistrationConfig;
import io.loadwise.dispatcher.control.NodeRegistration;
import io.loadwise.dispatcher.control.RegistrationRefusedException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class NodeRegistryTest {

    private static final long MS = 1_000_000L;
    private final AtomicLong clock = new AtomicLong(5_000 * MS);
    private final NodeRegistry registry = new NodeRegistry(clock::get);

    private static ClusterConfig cluster(boolean enabled, int maxNodes) {
        return ClusterConfig.builder().name("web").mode(Mode.HTTP).listen("127.0.0.1:0").policy("round-robin")
                .registration(new RegistrationConfig(enabled, List.of("10.0.0.0/8"), 2_000, maxNodes))
                .nodes(List.of(new NodeConfig("static", "10.0.0.9:8080", null, null, null, null))).build();
    }

    private static NodeRegistration reg(String name, String address, String... contexts) {
        return new NodeRegistration(name, address, "r-" + name, List.of(contexts));
    }

    private static LoadwiseConfig config(ClusterConfig cluster) {
        return new LoadwiseConfig(null, null, List.of(cluster));
    }

    @Test
    void addsRenewsAndChanges() {
        ClusterConfig web = cluster(true, 4);
        assertEquals(NodeRegistry.Outcome.ADDED, registry.register(web, reg("n1", "10.0.0.1:8080", "/app")));
        assertEquals(NodeRegistry.Outcome.RENEWED, registry.register(web, reg("n1", "10.0.0.1:8080", "/app")));
        assertEquals(NodeRegistry.Outcome.CHANGED, registry.register(web, reg("n1", "10.0.0.1:8080", "/app", "/b")));
        assertEquals(Set.of("n1"), registry.names("web"));
    }

    @Test
    void overlayAppendsRegisteredNodesAfterConfiguredOnes() {
        ClusterConfig web = cluster(true, 4);
        LoadwiseConfig config = config(web);
        assertSame(config, registry.overlay(config), "nothing registered: the same object");
        registry.register(web, reg("n1", "10.0.0.1:8080", "/app"));
        List<NodeConfig> nodes = registry.overlay(config).clustersOrEmpty().get(0).nodesOrEmpty();
        assertEquals(List.of("static", "n1"), nodes.stream().map(NodeConfig::name).toList());
        assertEquals(new NodeConfig("n1", "10.0.0.1:8080", null, null, "r-n1", null, null, null, List.of("/app")), nodes.get(1));
        assertEquals(1, web.nodesOrEmpty().size(), "the configuration itself is untouched");
    }

    @Test
    void boundedByMaxNodes() {
        ClusterConfig web = cluster(true, 2);
        registry.register(web, reg("n1", "10.0.0.1:8080", "/app"));
        registry.register(web, reg("n2", "10.0.0.2:8080", "/app"));
        RegistrationRefusedException e = assertThrows(RegistrationRefusedException.class,
                () -> registry.register(web, reg("n3", "10.0.0.3:8080", "/app")));
        assertEquals(409, e.status());
        assertEquals("cluster 'web' already holds 2 registered nodes, its registration.maxNodes", e.getMessage());
        assertEquals(NodeRegistry.Outcome.RENEWED, registry.register(web, reg("n2", "10.0.0.2:8080", "/app")),
                "a full cluster still takes heartbeats");
    }

    @Test
    void refusals() {
        assertRefused(403, "cluster 'web' takes no registrations (registration.enabled is not true)",
                cluster(false, 4), reg("n1", "10.0.0.1:8080", "/app"));
        assertRefused(403, "address 192.168.1.1:8080 is outside the allowed networks of cluster 'web' [10.0.0.0/8]",
                cluster(true, 4), reg("n1", "192.168.1.1:8080", "/app"));
        assertRefused(409, "cluster 'web' has a configured node named 'static'; a registered node needs a name of "
                + "its own", cluster(true, 4), reg("static", "10.0.0.1:8080", "/app"));
        RegistrationRefusedException e = assertThrows(RegistrationRefusedException.class, () -> registry.register(
                cluster(true, 4), new NodeRegistration("-x", "node.local:80", "bad route!", List.of("app", "/a", "/a"))));
        assertEquals(400, e.status());
        assertEquals(List.of(
                "name: must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit",
                "address: 'node.local' is not an IP address (registered nodes give an IP literal; no name is looked up)",
                "route: may contain only letters, digits, '.', '_' and '-' (at most 64)",
                "contexts[0]: 'app' must start with '/'",
                "contexts[2]: duplicate '/a'"), e.details());
        assertTrue(registry.names("web").isEmpty());
    }

    private void assertRefused(int status, String message, ClusterConfig cluster, NodeRegistration r) {
        RegistrationRefusedException e = assertThrows(RegistrationRefusedException.class, () -> registry.register(cluster, r));
        assertEquals(status, e.status());
        assertEquals(message, e.getMessage());
    }

    @Test
    void lapsesAfterTheTtlWithoutHeartbeat() {
        ClusterConfig web = cluster(true, 4);
        registry.register(web, reg("n1", "10.0.0.1:8080", "/app"));
        registry.register(web, reg("n2", "10.0.0.2:8080", "/app"));
        clock.addAndGet(1_500 * MS);
        registry.register(web, reg("n2", "10.0.0.2:8080", "/app"));
        assertFalse(registry.removeLeft(config(web), (c, n) -> false));
        clock.addAndGet(501 * MS);
        assertTrue(registry.removeLeft(config(web), (c, n) -> false));
        assertEquals(Set.of("n2"), registry.names("web"));
    }

    @Test
    void aLeavingNodeGoesWhenIdleOrAfterTheTtl() {
        ClusterConfig web = cluster(true, 4);
        registry.register(web, reg("n1", "10.0.0.1:8080", "/app"));
        registry.register(web, reg("n2", "10.0.0.2:8080", "/app"));
        assertTrue(registry.leave("web", "n1"));
        assertTrue(registry.leave("web", "n2"));
        assertFalse(registry.leave("web", "n3"));
        assertEquals(Set.of("n1", "n2"), registry.leaving("web"));
        assertTrue(registry.removeLeft(config(web), (c, n) -> n.equals("n1")));
        assertEquals(Set.of("n2"), registry.names("web"));
        clock.addAndGet(1_000 * MS);
        registry.register(web, reg("n2", "10.0.0.2:8080", "/app")); // a heartbeat after leaving: it came back
        assertEquals(Set.of(), registry.leaving("web"));
        registry.leave("web", "n2");
        clock.addAndGet(1_999 * MS);
        assertFalse(registry.removeLeft(config(web), (c, n) -> false), "busy, and heartbeats keep it alive");
        clock.addAndGet(2 * MS);
        assertTrue(registry.removeLeft(config(web), (c, n) -> false), "busy for a whole TTL: removed anyway");
    }

    @Test
    void registrationsOfAClusterThatStopsTakingThemAreDropped() {
        registry.register(cluster(true, 4), reg("n1", "10.0.0.1:8080", "/app"));
        assertTrue(registry.removeLeft(config(cluster(false, 4)), (c, n) -> false));
        assertEquals(Set.of(), registry.names("web"));
    }
}
