package io.loadwise.dispatcher.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.HealthCheckConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.policy.PolicyRegistry;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * What a node's {@link GroupGate} does to {@link NodeState#usable()} and to pinned work, and how a cluster
 * sets the gates when it rebuilds its picker: every policy, built-in or not, then picks only within them.
 */
class GroupGateTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    private NodeState node() {
        return new NodeState(0, new NodeConfig("n", "127.0.0.1:8080", 1, true, null, null), "/agent", 3_000,
                now::get);
    }

    private static final HealthReport DOWN = new HealthReport(true, HealthState.DOWN, null);

    @Test
    void anActiveGateIsTheNodesOwnState() {
        NodeState n = node();
        assertTrue(n.usable());
        n.setHealth(DOWN);
        assertFalse(n.usable());
    }

    @Test
    void aStandbyNodeIsNeverPickedButKeepsItsPinnedWork() {
        NodeState n = node();
        n.setGate(GroupGate.STANDBY);
        assertFalse(n.usable());
        assertFalse(n.selectable());
        assertTrue(n.keepsPinnedWork(), "as HAProxy serves persistent sessions on a backup server");
        n.setHealth(DOWN);
        assertFalse(n.keepsPinnedWork());
    }

    @Test
    void inPanicANodeThatAcceptsConnectionsIsPickedWhateverItsHealth() {
        NodeState n = node();
        n.setGate(GroupGate.PANIC);
        n.setHealth(DOWN);
        n.setEjected(true, 0);
        n.holdUntilReady();
        assertTrue(n.usable(), "health check, ejection and readiness hold are disregarded");
        assertFalse(n.inService());
        n.markConnectFailure(1_000);
        assertFalse(n.usable(), "a node that refused a connect accepts none: out, panic or not");
        now.addAndGet(1_001_000_000L);
        assertTrue(n.usable());
        n.setDraining(true);
        assertFalse(n.usable(), "draining (or disabled) is the operator's: out in panic too");
    }

    @Test
    void theClusterSetsTheGatesWhenItRebuildsItsPicker() {
        ClusterConfig config = ClusterConfig.builder().name("web").mode(Mode.HTTP).listen("127.0.0.1:0")
                .policy("least-connections").healthCheck(new HealthCheckConfig("/h", 1_000, 500, 1, 1, null))
                .nodes(List.of(new NodeConfig("p", "127.0.0.1:1", null, null, null, null),
                        new NodeConfig("b", "127.0.0.1:2", null, null, null, null, null, null, null, null, true)))
                .build();
        VirtualCluster cluster = new VirtualCluster(config, PolicyRegistry.load(), now::get);
        NodeState p = cluster.node("p");
        NodeState b = cluster.node("b");
        assertEquals(GroupGate.STANDBY, b.gate());
        assertEquals("p", cluster.pick(null).name());

        p.setHealth(DOWN);
        cluster.refresh(); // as the health checker does after a verdict changed
        assertEquals(GroupGate.ACTIVE, b.gate());
        assertTrue(cluster.groupVerdict().backupActive());
        for (int i = 0; i < 5; i++) {
            assertEquals("b", cluster.pick(null).name());
        }

        b.setHealth(DOWN);
        cluster.refresh();
        assertTrue(cluster.groupVerdict().panic(), "nothing usable anywhere");
        assertEquals(GroupGate.PANIC, p.gate());
        assertTrue(cluster.pick(null) != null, "both still accept connections");

        p.setHealth(new HealthReport(true, HealthState.UP, null));
        cluster.refresh();
        assertFalse(cluster.groupVerdict().panic());
        assertEquals(GroupGate.STANDBY, b.gate());
    }

    @Test
    void aLiveConfigurationChangeJudgesTheGroupsAgain() {
        ClusterConfig config = ClusterConfig.builder().name("web").mode(Mode.TCP).listen("127.0.0.1:0")
                .policy("round-robin").nodes(List.of(new NodeConfig("p", "127.0.0.1:1", null, null, null, null),
                        new NodeConfig("q", "127.0.0.1:2", null, null, null, null)))
                .build();
        VirtualCluster cluster = new VirtualCluster(config, PolicyRegistry.load(), now::get);
        assertEquals(GroupGate.ACTIVE, cluster.node("q").gate());
        cluster.updateConfig(config.toBuilder().nodes(List.of(config.nodes().get(0),
                new NodeConfig("q", "127.0.0.1:2", null, null, null, null, null, null, null, 1, null))).build());
        assertEquals(GroupGate.STANDBY, cluster.node("q").gate(), "priority 1 waits behind p");
        assertEquals(1, cluster.nodes().stream().filter(NodeState::usable).count());
    }
}
