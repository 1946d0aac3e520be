package io.loadwise.dispatcher.outlier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.cluster.NodeHandover;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.SlowStart;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.OutlierDetectionConfig;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.dispatcher.testsupport.Configs;
import io.loadwise.policy.PolicyRegistry;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class OutlierDetectorTest {

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final AtomicLong wall = new AtomicLong(1_000_000);

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private static VirtualCluster cluster(int nodes) {
        String[] addresses = new String[nodes];
        for (int i = 0; i < nodes; i++) {
            addresses[i] = "127.0.0.1:" + (9001 + i);
        }
        return new VirtualCluster(ClusterConfig.builder().name("web").mode(Mode.HTTP).listen("127.0.0.1:0")
                .policy("round-robin").nodes(Configs.nodes(addresses)).build(), PolicyRegistry.load(), System::nanoTime);
    }

    private OutlierDetector detector(VirtualCluster cluster, int base, int maxPercent) {
        return detector(cluster, 5, base, maxPercent);
    }

    private OutlierDetector detector(VirtualCluster cluster, int consecutive5xx, int base, int maxPercent) {
        OutlierDetector d = new OutlierDetector(cluster,
                new OutlierDetectionConfig(consecutive5xx, 3, base, maxPercent, null),
                scheduler, System::nanoTime, wall::get);
        cluster.setOutcomes(d);
        return d;
    }

    @Test
    void fiveConsecutive5xxEjectAndAnyOtherAnswerResetsTheRun() {
        VirtualCluster cluster = cluster(4);
        OutlierDetector d = detector(cluster, 60_000, 50);
        NodeState a = cluster.node("n1");
        for (int i = 0; i < 4; i++) {
            d.onResponse(a, 500);
        }
        d.onResponse(a, 404);
        for (int i = 0; i < 4; i++) {
            d.onResponse(a, 500);
        }
        assertFalse(a.ejected(), "4 in a row, a 404, 4 in a row: no run of 5");
        d.onResponse(a, 500);
        assertTrue(a.ejected());
        assertFalse(a.usable());
        assertEquals(wall.get() + 60_000, a.ejectedUntilMillis());
        assertEquals(1, a.counters().read().ejections());
        assertEquals(1, cluster.counters().read().ejections());
        for (int i = 0; i < 50; i++) {
            assertTrue(cluster.pick(null) != a, "an ejected node is never picked");
        }
    }

    @Test
    void aRebuiltClusterKeepsAnEjectionUnderWayAndTheRunsOfItsKeptNodes() {
        VirtualCluster before = cluster(4);
        OutlierDetector old = detector(before, 60_000, 50);
        for (int i = 0; i < 5; i++) {
            old.onResponse(before.node("n1"), 500);
        }
        for (int i = 0; i < 4; i++) {
            old.onResponse(before.node("n2"), 500);
        }
        assertTrue(before.node("n1").ejected());
        VirtualCluster after = cluster(5); // a node added: the cluster is rebuilt, n1 to n4 are kept
        NodeHandover handover = NodeHandover.between(before, after);
        OutlierDetector next = detector(after, 60_000, 50);

        next.adopt(old, handover);
        after.refresh();

        NodeState n1 = after.node("n1");
        assertTrue(n1.ejected(), "the ejection goes on in the rebuilt cluster");
        assertEquals(before.node("n1").ejectedUntilMillis(), n1.ejectedUntilMillis(), "and ends when it would have");
        assertEquals(1, next.ejectedNow());
        for (int i = 0; i < 50; i++) {
            assertTrue(after.pick(null) != n1, "an ejected node is never picked");
        }
        next.onResponse(after.node("n2"), 500);
        assertTrue(after.node("n2").ejected(), "the fifth 5xx in a row, counting the four before the rebuild");
        assertFalse(after.node("n5").ejected());
    }

    @Test
    void a404OnAPathOtherNodesServeCountsInThe5xxRunNotTheGatewayRun() {
        VirtualCluster cluster = cluster(4);
        detector(cluster, 3, 60_000, 50);
        NodeState a = cluster.node("n1");
        cluster.answered(cluster.node("n2"), "/app/page", 200, System.nanoTime()); // n2 serves the path
        cluster.answered(a, "/app/page", 404, System.nanoTime());
        cluster.answered(a, "/app/page", 404, System.nanoTime());
        assertFalse(a.ejected());
        cluster.answered(a, "/app/page", 404, System.nanoTime());
        assertTrue(a.ejected(), "three 404s on a path n2 serves: three failures in a row");
        assertEquals(3, a.recentFailures(), "and what the adaptive policy counts");

        VirtualCluster gatewayOnly = cluster(4);
        detector(gatewayOnly, 0, 60_000, 50); // the 5xx run off; three gateway failures eject
        NodeState g = gatewayOnly.node("n1");
        gatewayOnly.answered(gatewayOnly.node("n2"), "/app/page", 200, System.nanoTime());
        for (int i = 0; i < 5; i++) {
            gatewayOnly.answered(g, "/app/page", 404, System.nanoTime());
        }
        assertFalse(g.ejected(), "a 404 is no gateway failure");
    }

    @Test
    void threeGatewayFailuresEjectAndA500EndsTheGatewayRun() {
        VirtualCluster cluster = cluster(4);
        OutlierDetector d = detector(cluster, 0, 60_000, 50);
        NodeState b = cluster.node("n2");
        d.onGatewayFailure(b);
        d.onResponse(b, 503);
        d.onResponse(b, 500); // a 5xx, but no gateway failure: the gateway run starts over
        d.onGatewayFailure(b);
        d.onResponse(b, 502);
        assertFalse(b.ejected(), "two gateway failures in a row at most (consecutive5xx is off)");
        d.onResponse(b, 504);
        assertTrue(b.ejected(), "502, 503 and 504 answers are gateway failures");
        assertEquals(1, d.ejectedNow());
    }

    @Test
    void maxEjectionPercentKeepsTheClusterFromEjectingItselfEmpty() {
        VirtualCluster cluster = cluster(4);
        OutlierDetector d = detector(cluster, 60_000, 50);
        for (NodeState node : cluster.nodes()) {
            for (int i = 0; i < 3; i++) {
                d.onGatewayFailure(node);
            }
        }
        assertEquals(2, d.ejectedNow(), "50 % of 4 nodes");
        assertTrue(cluster.node("n1").ejected() && cluster.node("n2").ejected());
        assertFalse(cluster.node("n3").ejected() || cluster.node("n4").ejected());
        assertEquals(2, cluster.counters().read().ejections());
    }

    @Test
    void anEjectedNodeComesBackAfterItsTimeRampingUpAndItsNextEjectionLastsLonger() {
        VirtualCluster cluster = cluster(2);
        SlowStart slowStart = new SlowStart(cluster, 60_000, System::nanoTime);
        cluster.setSlowStart(slowStart);
        OutlierDetector d = detector(cluster, 150, 50);
        NodeState a = cluster.node("n1");
        for (int i = 0; i < 5; i++) {
            d.onResponse(a, 500);
        }
        assertTrue(a.ejected());
        assertEquals(wall.get() + 150, a.ejectedUntilMillis());
        Await.until("n1 readmitted", () -> !a.ejected());
        assertTrue(a.usable());
        assertEquals(0, a.ejectedUntilMillis());
        assertEquals(0, d.ejectedNow());
        assertTrue(slowStart.factor(a) < 1, "a readmitted node ramps up");
        for (int i = 0; i < 5; i++) {
            d.onResponse(a, 500);
        }
        assertTrue(a.ejected());
        assertEquals(wall.get() + 300, a.ejectedUntilMillis(), "the second ejection in a row lasts twice as long");
        assertEquals(2, a.counters().read().ejections());
    }

    @Test
    void ejectionsInARowAreForgivenOnePerBasePeriodAndCapped() {
        OutlierCounters c = new OutlierCounters();
        long base = 1_000;
        assertEquals(1, c.nextMultiplier(0, base));
        c.readmitted(1_000);
        assertEquals(2, c.nextMultiplier(1_500, base), "ejected again within a base period");
        c.readmitted(3_500);
        assertEquals(2, c.nextMultiplier(4_600, base), "one base period without ejection forgives one");
        c.readmitted(6_600);
        assertEquals(1, c.nextMultiplier(106_600, base), "a long quiet time forgives all");
    }
}
