package io.loadwise.dispatcher.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.policy.PolicyRegistry;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A node at its {@code maxConnections} is passed over by every policy on the class path (issue 15,
 * item 4), without changing its flags: it is usable, only not admitted, and is picked again once a slot
 * frees.
 */
class FullNodeSkippedTest {

    private static final PolicyRegistry POLICIES = PolicyRegistry.load();

    static Stream<String> policies() {
        return POLICIES.all().keySet().stream().sorted();
    }

    @ParameterizedTest
    @MethodSource("policies")
    void aFullNodeIsNeverPicked(String policy) {
        ClusterConfig config = ClusterConfig.builder().name("web").mode(Mode.HTTP).listen("127.0.0.1:0").policy(policy)
                .nodes(List.of(new NodeConfig("a", "127.0.0.1:1", null, null, null, null, null, 1),
                        new NodeConfig("b", "127.0.0.1:2", null, null, null, null, null, 1)))
                .build();
        VirtualCluster cluster = new VirtualCluster(config, POLICIES, System::nanoTime);
        NodeState a = cluster.node("a");
        NodeState b = cluster.node("b");
        assertTrue(a.tryAdmit());
        assertFalse(a.tryAdmit(), "one slot");
        assertTrue(a.usable() && !a.admitted(), "full, not down");
        for (int i = 0; i < 50; i++) {
            assertEquals(b, cluster.pick(null), policy + " picked the full node");
            assertEquals(b, cluster.pick(a), policy + " returned the full node it was told to avoid");
        }
        assertTrue(b.tryAdmit());
        assertNull(cluster.pick(null), policy + ": every node full, nothing to pick");
        a.leave();
        boolean aAgain = false;
        for (int i = 0; i < 50 && !aAgain; i++) {
            aAgain = cluster.pick(null) == a;
        }
        assertTrue(aAgain, policy + " never picked a after its slot freed");
    }
}
