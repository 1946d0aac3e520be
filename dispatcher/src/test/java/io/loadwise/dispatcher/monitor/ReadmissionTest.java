package io.loadwise.dispatcher.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.cluster.AgentState;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.HealthCheckConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.policy.AgentSample;
import io.loadwise.policy.PolicyRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 18, item 2: a node that comes back is readmitted within about a second, whatever the back-off has
 * grown to and whatever {@code unhealthyRetryMs} says. Real agent endpoints on loopback, stopped and
 * started again on the same port; the default timings (1 s polls, 60 s re-probe) except a short expiry.
 */
class ReadmissionTest {

    private static final Map<String, Double> METRICS = Map.of("JVM_HEAP_USED%", 30.0, "OS_CPU_USED%", 10.0);

    private final NodeMonitor monitor = new NodeMonitor(Map.of());
    private AgentEndpoint agentA;
    private final AgentEndpoint agentB;

    ReadmissionTest() throws Exception {
        agentA = new AgentEndpoint();
        agentB = new AgentEndpoint();
        agentA.report(METRICS);
        agentB.report(METRICS);
    }

    @AfterEach
    void close() {
        monitor.close();
        agentA.close();
        agentB.close();
    }

    private VirtualCluster cluster(String policy) {
        ClusterConfig config = ClusterConfig.builder().name("web").mode(Mode.HTTP).listen("127.0.0.1:0")
                .policy(policy).agentExpiryMs(300)
                .nodes(List.of(new NodeConfig("a", agentA.address(), 1, true, null, null),
                        new NodeConfig("b", agentB.address(), 1, true, null, null))).build();
        return new VirtualCluster(config, PolicyRegistry.load(), System::nanoTime);
    }

    /** Stops a's endpoint and starts a new one on its port, reporting {@link #METRICS}. */
    private void restartA() throws Exception {
        int port = agentA.port();
        agentA.close();
        agentA = new AgentEndpoint(port);
        agentA.report(METRICS);
    }

    @Test
    void aNodeHeldOutByAConnectFailureIsReadmittedByTheProbeNotAfterUnhealthyRetryMs() {
        VirtualCluster cluster = cluster("round-robin");
        monitor.watch(cluster);
        NodeState a = cluster.node("a");
        a.markConnectFailure(60_000); // as the proxy does, with a retry interval far beyond the test
        assertTrue(a.connectDown());
        long start = System.nanoTime();
        Await.until("a readmitted by the probe", Duration.ofSeconds(3), () -> !a.connectDown());
        assertTrue(System.nanoTime() - start < Duration.ofMillis(1_500).toNanos(), "a probe a second at most");
        assertTrue(agentA.requests.get() >= 1, "the node was asked");
        assertTrue(agentB.requests.get() <= 1, "round robin reads no agent: b, never held out, is asked at most "
                + "once (whether it has an agent), never polled: " + agentB.requests.get());
    }

    @Test
    void aRestartedNodeWhoseAgentHasBeenSilentForLongIsBackWithinASecondOfAnswering() throws Exception {
        VirtualCluster cluster = cluster("jvm-aware");
        monitor.watch(cluster);
        NodeState a = cluster.node("a");
        Await.until("a polled", () -> a.agentState() == AgentState.OK);
        int port = agentA.port();
        agentA.close(); // killed
        Await.until("a's silence reported", () -> monitor.stats(a).silent());
        // The back-off grows to 1 s, then 2 s, then 4 s: wait until the next probe is 4 s away.
        long before = monitor.stats(a).pollsFailed();
        Await.until("two back-off steps taken", Duration.ofSeconds(10),
                () -> monitor.stats(a).pollsFailed() >= before + 2);
        a.markConnectFailure(60_000); // a client request found it dead

        agentA = new AgentEndpoint(port);
        agentA.report(METRICS);
        long restarted = System.nanoTime();
        Await.until("a back in selection with its metrics", Duration.ofSeconds(5),
                () -> !a.connectDown() && a.agentState() == AgentState.OK);
        long millis = (System.nanoTime() - restarted) / 1_000_000;
        assertTrue(millis < 2_000, "readmitted " + millis + " ms after it answered again");
        assertEquals(AgentSample.Source.POLL, a.agentSample().source());
    }

    @Test
    void aSignOfLifeWhileBackingOffPollsTheAgentAtOnce() throws Exception {
        VirtualCluster cluster = cluster("jvm-aware");
        agentA.reportRaw("<html>not yet</html>");
        monitor.watch(cluster);
        NodeState a = cluster.node("a");
        Await.until("a's silence reported", () -> monitor.stats(a).silent());
        long failed = monitor.stats(a).pollsFailed();
        Await.until("two back-off steps taken", Duration.ofSeconds(10),
                () -> monitor.stats(a).pollsFailed() >= failed + 2); // the next is 4 s away
        agentA.report(METRICS);

        long signOfLife = System.nanoTime();
        monitor.acceptLoadReport(cluster, a, "TEXT cpu_utilization=0.10"); // a piggybacked report
        Await.until("the full sample polled at once", Duration.ofSeconds(3),
                () -> a.latestAgentSample().source() == AgentSample.Source.POLL);
        assertTrue(System.nanoTime() - signOfLife < Duration.ofMillis(1_500).toNanos(),
                "polled before the next back-off step");

        // The same for the first successful connect after connect failures.
        restartA();
        agentA.reportRaw("<html>broken again</html>");
        Await.until("a silent again", Duration.ofSeconds(10), () -> monitor.stats(a).silent());
        a.markConnectFailure(10); // the proxy failed to connect once; the window is soon over
        Await.until("the failure window over", () -> !a.connectDown());
        long failedAgain = monitor.stats(a).pollsFailed();
        Await.until("two back-off steps taken", Duration.ofSeconds(10),
                () -> monitor.stats(a).pollsFailed() >= failedAgain + 2); // the next is 4 s away
        agentA.report(METRICS);
        long okBefore = monitor.stats(a).pollsOk();
        long reconnected = System.nanoTime();
        a.markConnectSuccess(); // the proxy connected again: the node is back
        Await.until("polled at once", Duration.ofSeconds(3), () -> monitor.stats(a).pollsOk() > okBefore);
        assertTrue(System.nanoTime() - reconnected < Duration.ofMillis(1_500).toNanos(),
                "polled before the next back-off step");
    }

    @Test
    void withAHealthCheckTheAgentAnswering200DoesNotReadmitOnlyTheCheckDoes() throws Exception {
        // GlassFish, 2026-11-28: the agent (a filter) answered 200 30 ms before the application's /health did, and
        // the six requests sent in between got the container's 404
        ClusterConfig config = ClusterConfig.builder().name("web").mode(Mode.HTTP).listen("127.0.0.1:0")
                .policy("round-robin").agentExpiryMs(300)
                .healthCheck(new HealthCheckConfig("/health", 600_000, 1_000, 1, 1, null))
                .nodes(List.of(new NodeConfig("a", agentA.address(), 1, true, null, null),
                        new NodeConfig("b", agentB.address(), 1, true, null, null))).build();
        VirtualCluster cluster = new VirtualCluster(config, PolicyRegistry.load(), System::nanoTime);
        monitor.watch(cluster);
        NodeState a = cluster.node("a");
        assertTrue(a.readinessGated(), "a health check gates the node from the start");
        a.markConnectFailure(1_200);
        int asked = agentA.requests.get();
        Await.until("three probes answered 200", Duration.ofSeconds(6), () -> agentA.requests.get() >= asked + 3);
        assertFalse(a.connectDown(), "the retry interval is over");
        assertTrue(a.awaitingReadiness(), "the agent's 200 is not the application's: the health check decides");
        assertFalse(a.usable());
        assertTrue(a.markReady(), "what a passing health check does (NodeCheck)");
        assertTrue(a.usable());
    }

    @Test
    void aServerAnsweringWhileItsApplicationDeploysIsReadmittedOnlyOnceItServes() throws Exception {
        VirtualCluster cluster = cluster("round-robin");
        monitor.watch(cluster);
        NodeState a = cluster.node("a");
        // first the agent answers: from then on a 404 means the application is not deployed
        Await.until("a's agent found", Duration.ofSeconds(3), a::readinessGated);

        for (int status : new int[] {503, 404, 500}) {
            agentA.answerStatus(status); // the server's connector is up, the application is not
            // held out for less than a probe period: the readiness hold, not the retry interval, keeps it out, so
            // the proxy's own retry (after unhealthyRetryMs) cannot hand it a client request
            a.markConnectFailure(1_200);
            int asked = agentA.requests.get();
            Await.until("three probes answered " + status, Duration.ofSeconds(6), () -> agentA.requests.get() >= asked + 3);
            assertFalse(a.connectDown(), "the retry interval is over");
            assertTrue(a.awaitingReadiness(), "a server answering " + status + " stays out until it is ready");
            assertFalse(a.usable());
        }
        agentA.answerStatus(0);
        long serving = System.nanoTime();
        Await.until("a readmitted once it serves", Duration.ofSeconds(3), a::usable);
        assertTrue(System.nanoTime() - serving < Duration.ofMillis(1_500).toNanos(), "at the next probe");
        assertFalse(a.awaitingReadiness());
    }

    @Test
    void underAnAgentDrivenPolicyAnAgentThatStopsAnsweringTakesItsNodeOutUntilItServesAgain() throws Exception {
        VirtualCluster cluster = cluster("jvm-aware");
        monitor.watch(cluster);
        NodeState a = cluster.node("a");
        Await.until("a polled", () -> a.agentState() == AgentState.OK);
        assertTrue(a.usable());
        agentA.answerStatus(404); // redeployed, or restarted faster than any client noticed
        Await.until("a out while its application is not deployed", Duration.ofSeconds(3), a::awaitingReadiness);
        assertFalse(a.usable());
        agentA.answerStatus(0);
        Await.until("a back once its agent answers 200", Duration.ofSeconds(3), a::usable);
    }

    @Test
    void underAnyPolicyA404OnAPathAnotherNodeServesHasTheAgentAskedAtOnce() throws Exception {
        VirtualCluster cluster = cluster("round-robin"); // reads no agent: a node in selection is not polled
        monitor.watch(cluster);
        NodeState a = cluster.node("a");
        NodeState b = cluster.node("b");
        Await.until("a's agent found", Duration.ofSeconds(3), a::readinessGated);
        cluster.answered(b, "/trade/quote", 200, System.nanoTime()); // b serves the path

        int asked = agentA.requests.get();
        cluster.answered(a, "/trade/quote", 404, System.nanoTime()); // a's 404 there: its application may be gone
        Await.until("a's agent asked", Duration.ofSeconds(3), () -> agentA.requests.get() > asked);
        assertTrue(a.usable(), "its agent answers 200: the 404 was the application's own, a stays");

        agentA.answerStatus(404); // undeployed: clients keep getting a's 404s, which have its agent asked once a second
        Await.until("a out until its application is back", Duration.ofSeconds(4), () -> {
            cluster.answered(a, "/trade/quote", 404, System.nanoTime());
            return a.awaitingReadiness();
        });
        assertFalse(a.usable());
        assertTrue(agentA.requests.get() <= asked + 4, "at most one question a second: " + (agentA.requests.get() - asked));
        agentA.answerStatus(0);
        Await.until("a back once its agent answers 200", Duration.ofSeconds(3), a::usable);
    }

    @Test
    void aRefusedPollTakesAGatedNodeOutUntilItIsReady() throws Exception {
        VirtualCluster cluster = cluster("jvm-aware");
        monitor.watch(cluster);
        NodeState a = cluster.node("a");
        Await.until("a polled", () -> a.agentState() == AgentState.OK);
        int port = agentA.port();
        agentA.close(); // killed between two client requests: only the poll notices
        Await.until("a out", Duration.ofSeconds(3), () -> !a.usable() && a.awaitingReadiness());
        agentA = new AgentEndpoint(port);
        agentA.answerStatus(404); // the connector is up, the application deploys
        int asked = agentA.requests.get();
        Await.until("two probes answered 404", Duration.ofSeconds(5), () -> agentA.requests.get() >= asked + 2);
        assertFalse(a.usable(), "accepting connections is not serving");
        agentA.answerStatus(0);
        agentA.report(METRICS);
        Await.until("a back once its agent answers 200", Duration.ofSeconds(3), a::usable);
    }

    @Test
    void aNodeWithoutAnAgentIsReadmittedByItsFirst404AsBefore() throws Exception {
        agentA.answerStatus(404); // no agent deployed: the agent path was never there
        VirtualCluster cluster = cluster("round-robin");
        monitor.watch(cluster);
        NodeState a = cluster.node("a");
        a.markConnectFailure(60_000);
        Await.until("a readmitted by the probe", Duration.ofSeconds(3), () -> !a.connectDown());
    }

}
