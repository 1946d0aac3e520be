package io.loadwise.dispatcher.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.testsupport.Configs;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.PolicyOptions;
import io.loadwise.policy.PolicyRegistry;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Slow start on a virtual clock: the ramp's shape, over the policies, and that it costs nothing after. */
class SlowStartTest {

    private static final long MS = 1_000_000L;
    private final AtomicLong clock = new AtomicLong(1_000 * MS);

    private VirtualCluster cluster(String policy) {
        return new VirtualCluster(ClusterConfig.builder().name("web").mode(Mode.HTTP).listen("127.0.0.1:0")
                .policy(policy).nodes(Configs.nodes("127.0.0.1:9001", "127.0.0.1:9002", "127.0.0.1:9003")).build(),
                PolicyRegistry.load(), clock::get);
    }

    /** Share of {@code picks} picks that go to node {@code name}. */
    private static double share(VirtualCluster cluster, String name, int picks) {
        int hits = 0;
        for (int i = 0; i < picks; i++) {
            NodeView node = cluster.pick(null);
            hits += node.name().equals(name) ? 1 : 0;
        }
        return hits / (double) picks;
    }

    @Test
    void aRebuiltClusterGoesOnWithTheRampsOfTheNodesItKeepsAndRampsNoOther() {
        VirtualCluster before = cluster("round-robin");
        SlowStart old = new SlowStart(before, 10_000, clock::get);
        before.setSlowStart(old);
        old.begin(before.node("n2")); // n2 came back 4 s before the reload
        clock.addAndGet(4_000 * MS);
        double n2Factor = old.factor(before.node("n2"));
        assertEquals(0.46, n2Factor, 1e-9);
        VirtualCluster after = new VirtualCluster(before.config().toBuilder()
                .nodes(Configs.nodes("127.0.0.1:9001", "127.0.0.1:9002", "127.0.0.1:9003", "127.0.0.1:9004")).build(),
                PolicyRegistry.load(), clock::get);
        NodeHandover handover = NodeHandover.between(before, after);
        assertEquals(3, handover.kept());
        SlowStart next = new SlowStart(after, 10_000, clock::get);
        after.setSlowStart(next);

        next.adopt(old, handover);

        assertEquals(n2Factor, next.factor(after.node("n2")), 1e-9, "n2 ramps on from where it was");
        assertEquals(1.0, next.factor(after.node("n1")), "a node that was not ramping gets its full share at once");
        assertEquals(1.0, next.factor(after.node("n4")), "an added node usable at start does not ramp");
        clock.addAndGet(6_000 * MS);
        assertFalse(next.tick(), "and its ramp ends when it would have");
        assertEquals(1.0, next.factor(after.node("n2")));
    }

    @Test
    void theFactorRisesLinearlyFromTenPercentToFull() {
        long d = 10_000 * MS;
        assertEquals(0.1, SlowStart.factor(0, d), 1e-9);
        assertEquals(0.55, SlowStart.factor(d / 2, d), 1e-9);
        assertEquals(1.0, SlowStart.factor(d, d), 1e-9);
        assertEquals(0.1, SlowStart.factor(-5, d), 1e-9);
    }

    @Test
    void aReturningNodeRampsItsRoundRobinShareAndThePickerIsThePolicysOwnAfterwards() {
        VirtualCluster cluster = cluster("round-robin");
        NodeState n1 = cluster.node("n1");
        SlowStart slowStart = new SlowStart(cluster, 10_000, clock::get);
        cluster.setSlowStart(slowStart);
        assertFalse(slowStart.tick(), "nodes usable at start do not ramp");

        n1.setHealth(new HealthReport(true, HealthState.DOWN, null));
        cluster.refresh();
        assertFalse(slowStart.tick());
        assertEquals(0, share(cluster, "n1", 300));
        n1.setHealth(new HealthReport(true, HealthState.UP, null));
        assertTrue(slowStart.tick(), "the tick notices the return");

        // As if n1's weight were multiplied by the factor f: a share of f / (f + 2) against two full nodes.
        assertEquals(0.1 / 2.1, share(cluster, "n1", 30_000), 0.01);
        clock.addAndGet(5_000 * MS);
        slowStart.tick();
        assertEquals(0.55 / 2.55, share(cluster, "n1", 30_000), 0.015);
        clock.addAndGet(5_000 * MS);
        assertFalse(slowStart.tick(), "the ramp is over");
        assertEquals(1.0, slowStart.factor(n1));
        assertEquals(1 / 3.0, share(cluster, "n1", 3_000), 1e-9, "exactly round robin again");
    }

    @ParameterizedTest
    @ValueSource(strings = {"least-connections", "random", "static-wrr", "jvm-aware", "fastest-response-time"})
    void everyPolicysPicksOfARampingNodeAreThinnedOut(String policy) {
        VirtualCluster cluster = cluster(policy);
        SlowStart slowStart = new SlowStart(cluster, 10_000, clock::get);
        cluster.setSlowStart(slowStart);
        slowStart.begin(cluster.node("n2"));
        double ramping = share(cluster, "n2", 20_000);
        assertTrue(ramping < 0.1, policy + ": a node at 10 % of its ramp got " + ramping + " of the picks");
        assertTrue(ramping > 0.005, policy + ": the ramping node still gets some picks, got " + ramping);
    }

    @Test
    void aRampingNodeThatIsTheOnlyUsableOneStillGetsEveryPick() {
        VirtualCluster cluster = cluster("round-robin");
        SlowStart slowStart = new SlowStart(cluster, 10_000, clock::get);
        cluster.setSlowStart(slowStart);
        cluster.setEnabled(cluster.node("n2"), false);
        cluster.setEnabled(cluster.node("n3"), false);
        slowStart.begin(cluster.node("n1"));
        assertEquals(1.0, share(cluster, "n1", 500), "slow start never fails a request");
    }

    @Test
    void aPolicySwitchDuringTheRampKeepsTheRamp() {
        VirtualCluster cluster = cluster("round-robin");
        SlowStart slowStart = new SlowStart(cluster, 10_000, clock::get);
        cluster.setSlowStart(slowStart);
        slowStart.begin(cluster.node("n3"));
        cluster.switchPolicy(PolicyRegistry.load().get("static-wrr"), PolicyOptions.EMPTY);
        assertEquals(0.1 / 2.1, share(cluster, "n3", 30_000), 0.01);
    }

    @Test
    void enablingADisabledNodeStartsItsRamp() {
        VirtualCluster cluster = cluster("round-robin");
        SlowStart slowStart = new SlowStart(cluster, 10_000, clock::get);
        cluster.setSlowStart(slowStart);
        NodeState n1 = cluster.node("n1");
        cluster.setEnabled(n1, false);
        cluster.setEnabled(n1, true);
        assertEquals(0.1, slowStart.factor(n1), 1e-9);
        assertSame(n1, cluster.node("n1"));
    }

    @Test
    void aRampArmedWhileTheNodeWasStillHeldOutStartsWhenItIsUsable() {
        VirtualCluster cluster = cluster("round-robin");
        SlowStart slowStart = new SlowStart(cluster, 10_000, clock::get);
        cluster.setSlowStart(slowStart);
        NodeState n2 = cluster.node("n2");
        n2.setEjected(true, 0); // one gate holds the node out...
        slowStart.tick();
        slowStart.begin(n2); // ...while another (say its health check) readmits it and arms the ramp
        clock.addAndGet(6_000 * MS);
        slowStart.tick();
        n2.setEjected(false, 0); // the last gate opens six seconds later
        clock.addAndGet(SlowStart.TICK_MILLIS * MS);
        slowStart.tick();
        assertEquals(0.1, slowStart.factor(n2), 1e-9, "the ramp runs from the moment the node is usable");
    }
}
