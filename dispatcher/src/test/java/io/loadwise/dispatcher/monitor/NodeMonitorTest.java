package io.loadwise.dispatcher.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.loadwise.dispatcher.cluster.AgentState;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.policy.AgentSample;
import io.loadwise.policy.PolicyMetric;
import io.loadwise.policy.PolicyRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class NodeMonitorTest {

    private final NodeMonitor monitor = new NodeMonitor();
    private final AgentEndpoint agentA;
    private final AgentEndpoint agentB;

    NodeMonitorTest() throws Exception {
        agentA = new AgentEndpoint();
        agentB = new AgentEndpoint();
        agentA.report(Map.of("JVM_HEAP_USED%", 70.0, "OS_CPU_USED%", 10.0));
        agentB.report(Map.of("JVM_HEAP_USED%", 30.0, "OS_CPU_USED%", 20.0));
    }

    @AfterEach
    void close() {
        monitor.close();
        agentA.close();
        agentB.close();
    }

    private VirtualCluster cluster(String policy, int reprobeMs) {
        return cluster(policy, reprobeMs, 3_000);
    }

    private VirtualCluster cluster(String policy, int reprobeMs, int expiryMs) {
        return cluster(policy, reprobeMs, expiryMs, Map.of());
    }

    private VirtualCluster cluster(String policy, int reprobeMs, int expiryMs, Map<String, Double> options) {
        ClusterConfig config = ClusterConfig.builder().name("web").mode(Mode.HTTP).listen("127.0.0.1:0").policy(policy)
                .policyOptions(options)
                .agentPollIntervalMs(100).agentExpiryMs(expiryMs).agentReprobeMs(reprobeMs)
                .nodes(List.of(new NodeConfig("a", agentA.address(), 1, true, null, null),
                        new NodeConfig("b", agentB.address(), 1, true, null, null))).build();
        return new VirtualCluster(config, PolicyRegistry.load(), System::nanoTime);
    }

    /** Heap and CPU are the only metrics reported: jvm-aware's load is their mean (a 40, b 25). */
    @Test
    void pollingFeedsSamplesAndThePickerFollowsThem() {
        VirtualCluster cluster = cluster("jvm-aware", 60_000);
        monitor.watch(cluster);
        NodeState a = cluster.node("a");
        NodeState b = cluster.node("b");
        await(() -> a.agentSample() != null && b.agentSample() != null, "both nodes polled");
        assertEquals(AgentSample.Source.POLL, a.agentSample().source());
        assertEquals(70.0, a.agentSample().value(PolicyMetric.JVM_HEAP_USED));
        awaitSteadyPicks(cluster, b, "the picker rebuilt with b as the lightest node");

        agentA.report(Map.of("JVM_HEAP_USED%", 10.0));
        awaitSteadyPicks(cluster, a, "a's new sample (load 10) reached the picker");
        agentA.report(Map.of("JVM_HEAP_USED%", 86.0));
        awaitSteadyPicks(cluster, b, "a above the 85 % heap threshold is refused");
        AgentStats stats = monitor.stats(a);
        assertTrue(stats.pollsOk() >= 3, "three samples seen, polls counted: " + stats.pollsOk());
        assertTrue(stats.lastPollMillis() >= 0, "NODE_NMA_RSPS_TIME " + stats.lastPollMillis());
        assertEquals(100.0, stats.availabilityPercent());
    }

    /** a: load 40 (heap 70, CPU 10); b: load 25 until its agent answers garbage. */
    @Test
    void anAgentThatStopsAnsweringBecomesUnknownAndItsNodeStaysInSelection() throws Exception {
        VirtualCluster cluster = cluster("jvm-aware", 200, 300);
        monitor.watch(cluster);
        NodeState a = cluster.node("a");
        NodeState b = cluster.node("b");
        awaitSteadyPicks(cluster, b, "b chosen while its agent answers");
        assertEquals(AgentState.OK, b.agentState());

        agentB.reportRaw("<html>not metrics</html>");
        await(() -> monitor.stats(b).silent(), "b's silence reported once its last sample expired");
        assertEquals(AgentState.UNKNOWN, b.agentState());
        assertTrue(b.healthy(), "a silent agent takes no node out");
        assertEquals("malformed metrics document", b.agentProblem());
        // b counts as an average node now, i.e. like a: both take turns.
        await(() -> picksBoth(cluster, a, b), "a and b take turns while b is unknown");
        assertTrue(monitor.stats(b).malformedReports() >= 1);
        assertNotNull(monitor.stats(b).lastError());

        agentB.report(Map.of("JVM_HEAP_USED%", 5.0));
        await(() -> b.agentState() == AgentState.OK && !monitor.stats(b).silent(),
                "b OK again after its re-probe, its silence over");
        awaitSteadyPicks(cluster, b, "b judged by its metrics again");
    }

    @Test
    void anUnreachableAgentLeavesItsNodeInSelectionUnderEveryPolicy() {
        VirtualCluster cluster = cluster("jvm-aware", 60_000, 300);
        agentA.close();
        monitor.watch(cluster);
        NodeState a = cluster.node("a");
        await(() -> monitor.stats(a).silent(), "a's silence reported: nothing listens on its agent port");
        assertEquals(AgentState.UNKNOWN, a.agentState());
        assertTrue(a.agentProblem().startsWith("ConnectException"), a.agentProblem());
        assertTrue(a.healthy());
        assertTrue(monitor.stats(a).pollsFailed() >= 1);
        assertTrue(monitor.stats(a).availabilityPercent() < 100.0);

        await(() -> picksBoth(cluster, a, cluster.node("b")), "jvm-aware uses a as an average node");
        cluster.switchPolicy(PolicyRegistry.load().get("round-robin"), io.loadwise.policy.PolicyOptions.EMPTY);
        assertEquals(AgentState.UNKNOWN, a.agentState(), "the state is what the dispatcher knows, whatever the policy");
        NodeState first = cluster.pick(null);
        NodeState second = cluster.pick(null);
        assertNotSame(first, second, "round robin alternates over both nodes");
    }

    @Test
    void aPiggybackedReportEndsAReportedSilenceAtOnce() {
        VirtualCluster cluster = cluster("jvm-aware", 60_000, 300);
        agentA.close();
        monitor.watch(cluster);
        NodeState a = cluster.node("a");
        await(() -> monitor.stats(a).silent(), "a's silence reported");

        monitor.acceptLoadReport(cluster, a, "TEXT cpu_utilization=0.25");
        assertEquals(AgentState.OK, a.agentState(), "a valid report is a sign of life");
        assertNull(a.agentProblem());
        assertFalse(monitor.stats(a).silent());

        monitor.acceptLoadReport(cluster, cluster.node("b"), "TEXT cpu_utilization=banana");
        assertEquals(1, monitor.stats(cluster.node("b")).malformedReports(), "garbage is no sign of life");
    }

    @Test
    void reportsOfferedFromAnEventLoopAreParsedOnTheMonitorThreadLatestFirst() {
        VirtualCluster cluster = cluster("jvm-aware", 60_000); // not watched: no poll replaces the reports
        NodeState a = cluster.node("a");
        for (int i = 1; i <= 50; i++) {
            monitor.offerLoadReport(cluster, a, "TEXT named_metrics.jvm_heap_used=0." + (i < 50 ? "10" : "77"));
        }
        await(() -> a.latestAgentSample() != null
                && Math.abs(a.latestAgentSample().value(PolicyMetric.JVM_HEAP_USED) - 77.0) < 1e-9,
                "the latest offered report applied");
        assertTrue(monitor.stats(a).piggybackReports() <= 50, "never more parses than reports");
    }

    /** Whether 20 picks include both nodes. */
    private static boolean picksBoth(VirtualCluster cluster, NodeState x, NodeState y) {
        boolean sawX = false;
        boolean sawY = false;
        for (int i = 0; i < 20; i++) {
            NodeState picked = cluster.pick(null);
            sawX |= picked == x;
            sawY |= picked == y;
        }
        return sawX && sawY;
    }

    @Test
    void piggybackedReportsUpdateTheSampleAndGarbageChangesNothing() {
        VirtualCluster cluster = cluster("jvm-aware", 60_000);
        NodeState a = cluster.node("a");
        monitor.acceptLoadReport(cluster, a, "TEXT cpu_utilization=0.25,named_metrics.jvm_heap_used=0.40");
        AgentSample sample = a.agentSample();
        assertNotNull(sample);
        assertEquals(AgentSample.Source.PIGGYBACK, sample.source());
        assertEquals(40.0, sample.value(PolicyMetric.JVM_HEAP_USED), 1e-9);
        assertEquals(25.0, sample.value(PolicyMetric.OS_CPU_USED), 1e-9);

        for (String garbage : new String[] {"", "TEXT cpu_utilization", "cpu_utilization=banana", "\u0000\u0001", "TEXT a=1,,=2"}) {
            monitor.acceptLoadReport(cluster, a, garbage);
            assertSame(sample, a.latestAgentSample(), "garbage '" + garbage + "' replaced the sample");
        }
        assertEquals(5, monitor.stats(a).malformedReports());
        assertEquals(1, monitor.stats(a).piggybackReports());
        monitor.acceptLoadReport(cluster, a, "TEXT ");
        assertSame(sample, a.latestAgentSample(), "an empty report changes nothing");
    }

    /** ORCA's three weight fields reach orca-wrr's inputs in every form, BIN included; broken BIN changes nothing. */
    @Test
    void orcaWeightFieldsArriveInEveryHeaderForm() {
        VirtualCluster cluster = cluster("orca-wrr", 60_000);
        NodeState a = cluster.node("a");
        Map<String, Double> report = Map.of("APP_RQST_RATE", 120.5, "APP_RQST_ERR_RATE", 0.5, "APP_UTILIZATION%", 61.0);
        for (io.loadwise.wire.OrcaLoadReport.Form form : io.loadwise.wire.OrcaLoadReport.Form.values()) {
            monitor.acceptLoadReport(cluster, a, io.loadwise.wire.OrcaLoadReport.encode(form, report));
            AgentSample sample = a.agentSample();
            assertEquals(120.5, sample.value(PolicyMetric.REQUEST_RATE), 1e-9, form.name());
            assertEquals(0.5, sample.value(PolicyMetric.ERROR_RATE), 1e-9, form.name());
            assertEquals(61.0, sample.value(PolicyMetric.APP_UTILIZATION), 1e-9, form.name());
        }
        AgentSample last = a.latestAgentSample();
        monitor.acceptLoadReport(cluster, a, "BIN CQAAAAAAAPh/"); // cpu_utilization NaN
        monitor.acceptLoadReport(cluster, a, "BIN not base64!");
        assertSame(last, a.latestAgentSample());
        assertEquals(2, monitor.stats(a).malformedReports());
    }

    /**
     * A58's weight update period, through {@code rebuildPeriodMillis}: once every agent is silent no sample and
     * no state change rebuilds the picker, yet orca-wrr's weights expire on time and it turns round robin.
     */
    @Test
    void anOrcaWeightExpiresOnTimeWhileNoAgentReportsOne() {
        agentA.report(Map.of("APP_RQST_RATE", 300.0, "APP_UTILIZATION%", 50.0));
        agentB.report(Map.of("APP_RQST_RATE", 100.0, "APP_UTILIZATION%", 50.0));
        VirtualCluster cluster = cluster("orca-wrr", 60_000, 300, Map.of("blackoutPeriodMs", 0.0,
                "weightExpirationPeriodMs", 3_000.0, "weightUpdatePeriodMs", 100.0));
        monitor.watch(cluster);
        NodeState a = cluster.node("a");
        await(() -> picksOf(cluster, a, 400) >= 280, "weights 3:1 from the agents' rps and utilization");
        // the agents answer on but report no weight (no request completed in their last second): closing
        // them would take the nodes out (readiness: an agent that refuses means the application is gone)
        agentA.report(Map.of("OS_CPU_USED%", 10.0));
        agentB.report(Map.of("OS_CPU_USED%", 10.0));
        await(() -> !weighed(a) && !weighed(cluster.node("b")), "both agents' samples without a weight");
        assertTrue(picksOf(cluster, a, 400) >= 280, "a weight outlives the sample, as in gRPC (3 s here)");
        await(() -> picksOf(cluster, a, 400) == 200, "the weights expired: round robin");
    }

    private static boolean weighed(NodeState node) {
        AgentSample sample = node.agentSample();
        return sample == null || sample.metrics().containsKey("APP_RQST_RATE");
    }

    private static int picksOf(VirtualCluster cluster, NodeState node, int picks) {
        int count = 0;
        for (int i = 0; i < picks; i++) {
            count += cluster.pick(null) == node ? 1 : 0;
        }
        return count;
    }

    @Test
    void aPiggybackKeepsTheFullMetricsOfTheLastPoll() {
        VirtualCluster cluster = cluster("jvm-aware", 60_000);
        monitor.watch(cluster);
        NodeState a = cluster.node("a");
        await(() -> a.agentSample() != null, "a polled");
        monitor.acceptLoadReport(cluster, a, "TEXT named_metrics.jvm_heap_used=0.55");
        AgentSample merged = a.latestAgentSample();
        assertEquals(55.0, merged.value(PolicyMetric.JVM_HEAP_USED), 1e-9);
        assertEquals(10.0, merged.value(PolicyMetric.OS_CPU_USED), 1e-9, "polled CPU kept");
    }

    /**
     * Waits until ten picks in a row return {@code node}: a single pick can land on it by tie rotation
     * while the picker still knows nothing.
     */
    private static void awaitSteadyPicks(VirtualCluster cluster, NodeState node, String what) {
        await(() -> {
            for (int i = 0; i < 10; i++) {
                if (cluster.pick(null) != node) {
                    return false;
                }
            }
            return true;
        }, what);
    }

    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("timed out waiting until " + what);
            }
            Thread.onSpinWait();
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted");
            }
        }
    }
}
