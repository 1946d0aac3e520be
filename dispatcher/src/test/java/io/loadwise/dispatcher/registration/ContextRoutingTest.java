package io.loadwise.dispatcher.registration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.config.RegistrationConfig;
import io.loadwise.policy.PolicyRegistry;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** {@link VirtualCluster#pick(io.loadwise.policy.NodeView, String)} in a cluster that routes by context. */
class ContextRoutingTest {

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);

    private VirtualCluster cluster(String policy) {
        List<NodeConfig> nodes = List.of(
                node("a1", "127.0.0.1:9001", List.of("/app")),
                node("a2", "127.0.0.1:9002", List.of("/app")),
                node("s1", "127.0.0.1:9003", List.of("/shop", "/app/admin")));
        return new VirtualCluster(ClusterConfig.builder().name("web").mode(Mode.HTTP).listen("127.0.0.1:0")
                .policy(policy).registration(new RegistrationConfig(true, List.of("127.0.0.0/8"), null, null))
                .nodes(nodes).build(), PolicyRegistry.load(), clock::get);
    }

    private static NodeConfig node(String name, String address, List<String> contexts) {
        return new NodeConfig(name, address, null, null, null, null, null, null, contexts);
    }

    private static List<String> picks(VirtualCluster cluster, String target, int n) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            NodeState node = cluster.pick(null, target);
            names.add(node == null ? null : node.name());
        }
        return names;
    }

    @Test
    void eachContextRoundRobinsOverItsOwnNodes() {
        VirtualCluster cluster = cluster("round-robin");
        assertEquals(List.of("a1", "a2", "a1", "a2"), picks(cluster, "/app/orders", 4));
        assertEquals(List.of("s1", "s1"), picks(cluster, "/shop?x", 2));
        assertEquals(List.of("s1", "s1"), picks(cluster, "/app/admin/users", 2), "the longer context wins");
        assertEquals(List.of("a1", "a2"), picks(cluster, "/app", 2));
    }

    @Test
    void aPathNoNodeServesHasNoNodeAndIsToldApart() {
        VirtualCluster cluster = cluster("round-robin");
        assertNull(cluster.pick(null, "/other"));
        assertFalse(cluster.servesTarget("/other"));
        assertTrue(cluster.servesTarget("/app/x"));
        assertEquals(0, cluster.counters().read().selections(), "no selection was counted");
    }

    @Test
    void whileTheContextsNodesDrainItGetsNoneAndNeverAnotherContextsNode() {
        VirtualCluster cluster = cluster("round-robin");
        cluster.setDraining(cluster.node("a1"), true);
        assertEquals(List.of("a2", "a2"), picks(cluster, "/app/x", 2));
        cluster.setDraining(cluster.node("a2"), true);
        assertEquals(java.util.Arrays.asList(null, null), picks(cluster, "/app/x", 2));
        assertTrue(cluster.servesTarget("/app/x"), "still a context: 503, not 404");
        assertEquals(List.of("s1"), picks(cluster, "/shop", 1));
    }

    @Test
    void avoidIsTranslatedIntoTheContextsPicker() {
        VirtualCluster cluster = cluster("test-first-usable");
        NodeState a1 = cluster.node("a1");
        assertEquals("a1", cluster.pick(null, "/app/x").name());
        assertEquals("a2", cluster.pick(a1, "/app/x").name());
        assertEquals("s1", cluster.pick(a1, "/shop").name(), "avoiding a node of another context changes nothing");
    }

    @Test
    void aPickWithoutTheTargetFindsNothingRatherThanAnotherContextsNode() {
        VirtualCluster cluster = cluster("round-robin");
        assertNull(cluster.pick(null));
        assertNull(cluster.pick(cluster.node("a1")));
    }

    @Test
    void affinityMayNotCrossContexts() {
        VirtualCluster cluster = cluster("round-robin");
        assertTrue(cluster.serves(cluster.node("a1"), "/app/x"));
        assertFalse(cluster.serves(cluster.node("a1"), "/shop/x"));
        assertFalse(cluster.serves(cluster.node("a1"), "/app/admin"));
        assertFalse(cluster.serves(cluster.node("a1"), "/nowhere"));
    }

    @Test
    void aClusterWithoutRegistrationIgnoresTheTarget() {
        VirtualCluster plain = new VirtualCluster(ClusterConfig.builder().name("web").mode(Mode.HTTP)
                .listen("127.0.0.1:0").policy("round-robin").nodes(List.of(
                        new NodeConfig("n1", "127.0.0.1:9001", null, null, null, null),
                        new NodeConfig("n2", "127.0.0.1:9002", null, null, null, null))).build(),
                PolicyRegistry.load(), clock::get);
        assertEquals(List.of("n1", "n2"), picks(plain, "/anything", 2));
        assertTrue(plain.servesTarget("/anything"));
    }

    @Test
    void picksDoNotAllocate() {
        VirtualCluster cluster = cluster("least-connections");
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        String[] targets = {"/app/orders?id=7", "/shop/cart", "/app/admin/x", "/none"};
        for (int i = 0; i < 20_000; i++) {
            cluster.pick(null, targets[i & 3]);
        }
        long before = threads.getThreadAllocatedBytes(thread);
        for (int i = 0; i < 100_000; i++) {
            cluster.pick(null, targets[i & 3]);
        }
        long allocated = threads.getThreadAllocatedBytes(thread) - before;
        assertTrue(allocated < 4096, "allocated " + allocated + " bytes in 100000 picks");
    }
}
