package io.loadwise.dispatcher.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.loadwise.dispatcher.cluster.AgentState;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.AgentSettings;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.policy.AgentSample;
import io.loadwise.policy.PolicyRegistry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Issue 18, item 1: the agent's shared secret end to end on the dispatcher side. Real agent endpoints on
 * loopback that answer 401 without the right {@code X-Loadwise-Secret}, as the agent's does.
 */
class AgentSecretTest {

    private static final String REFUSAL = "refused the poll: wrong or missing agent secret; set agent.secret or "
            + "LOADWISE_AGENT_SECRET";

    private final AgentEndpoint agentA;
    private final AgentEndpoint agentB;
    private final Logger monitorLog = (Logger) LoggerFactory.getLogger(NodeMonitor.class);
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    private NodeMonitor monitor;

    AgentSecretTest() throws Exception {
        agentA = new AgentEndpoint();
        agentB = new AgentEndpoint();
        agentA.report(Map.of("JVM_HEAP_USED%", 30.0, "OS_CPU_USED%", 10.0));
        agentB.report(Map.of("JVM_HEAP_USED%", 30.0, "OS_CPU_USED%", 10.0));
        logged.start();
        monitorLog.addAppender(logged);
    }

    @AfterEach
    void close() {
        monitorLog.detachAppender(logged);
        if (monitor != null) {
            monitor.close();
        }
        agentA.close();
        agentB.close();
    }

    private VirtualCluster cluster(String secret) {
        ClusterConfig config = ClusterConfig.builder().name("web").mode(Mode.HTTP).listen("127.0.0.1:0")
                .policy("jvm-aware").agentPollIntervalMs(50).agentExpiryMs(300).agentReprobeMs(100)
                .nodes(List.of(new NodeConfig("a", agentA.address(), 1, true, null, null),
                        new NodeConfig("b", agentB.address(), 1, true, null, null)))
                .agent(secret == null ? null : new AgentSettings(secret)).build();
        return new VirtualCluster(config, PolicyRegistry.load(), System::nanoTime);
    }

    @Test
    void everyPollCarriesTheClusterSecretInTheHeaderTheAgentChecks() {
        agentA.requireSecret("s3cret-of-web");
        agentB.requireSecret("s3cret-of-web");
        monitor = new NodeMonitor(Map.of());
        VirtualCluster cluster = cluster("s3cret-of-web");
        monitor.watch(cluster);
        NodeState a = cluster.node("a");
        Await.until("a polled with the secret", () -> a.agentState() == AgentState.OK
                && a.latestAgentSample().source() == AgentSample.Source.POLL);
        assertEquals("s3cret-of-web", agentA.lastSecretSeen.get());
        assertEquals(0, monitor.stats(a).pollsFailed(), "not one poll went without the secret");
    }

    @Test
    void theEnvironmentSecretWinsOverEveryClusters() {
        agentA.requireSecret("from-the-environment");
        monitor = new NodeMonitor(Map.of(AgentSettings.SECRET_ENV, " from-the-environment\n"));
        VirtualCluster cluster = cluster("from-the-file");
        monitor.watch(cluster);
        Await.until("a polled with the environment's secret", () -> cluster.node("a").agentState() == AgentState.OK);
        assertEquals("from-the-environment", agentA.lastSecretSeen.get());
    }

    @Test
    void withoutASecretNoHeaderIsSent() {
        monitor = new NodeMonitor(Map.of(AgentSettings.SECRET_ENV, "   "));
        VirtualCluster cluster = cluster(null);
        monitor.watch(cluster);
        Await.until("a polled", () -> cluster.node("a").agentState() == AgentState.OK);
        assertEquals("", agentA.lastSecretSeen.get());
    }

    @Test
    void aRefusedPollIsLoggedOnceShownAsUnauthorizedAndTheNodeStaysInSelection() {
        agentA.requireSecret("the-right-one");
        monitor = new NodeMonitor(Map.of());
        VirtualCluster cluster = cluster("a-wrong-one");
        monitor.watch(cluster);
        NodeState a = cluster.node("a");
        NodeState b = cluster.node("b");
        Await.until("a unauthorized", () -> a.agentState() == AgentState.UNAUTHORIZED);
        assertEquals("unauthorized", a.agentState().id());
        assertTrue(a.agentProblem().contains("wrong or missing agent secret"), a.agentProblem());
        assertTrue(a.healthy(), "a refusing agent takes no node out");
        assertEquals(AgentState.OK, b.agentState(), "b has no secret: its agent answers");
        Await.until("a taken as an average node next to b", () -> picksBoth(cluster, a, b));
        Await.until("several refused polls", () -> monitor.stats(a).pollsFailed() >= 5);

        List<String> refusals = warnings(REFUSAL);
        assertEquals(1, refusals.size(), "logged once per node: " + refusals);
        assertTrue(refusals.get(0).contains("agent at " + agentA.address() + "/loadwise-agent/metrics"),
                refusals.get(0));
        for (ILoggingEvent event : events()) {
            assertFalse(event.getFormattedMessage().contains("a-wrong-one"), "a secret was logged: " + event);
        }

        // A piggybacked report (the header goes to whoever gets the response) vouches for the agent at once.
        monitor.acceptLoadReport(cluster, a, "TEXT cpu_utilization=0.25");
        assertEquals(AgentState.OK, a.agentState());
        assertNull(a.agentProblem());

        // The agent is given the secret the dispatcher sends: the next poll succeeds.
        agentA.requireSecret("a-wrong-one");
        Await.until("a polled again", () -> monitor.stats(a).lastError() == null && monitor.stats(a).pollsOk() >= 1);
        assertEquals(AgentState.OK, a.agentState());
    }

    @Test
    void aMissingSecretIsRefusedAsAWrongOneIs() {
        agentA.requireSecret("the-right-one");
        monitor = new NodeMonitor(Map.of());
        VirtualCluster cluster = cluster(null);
        monitor.watch(cluster);
        Await.until("a unauthorized", () -> cluster.node("a").agentState() == AgentState.UNAUTHORIZED);
        assertEquals("", agentA.lastSecretSeen.get());
        Await.until("the refusal logged", () -> warnings(REFUSAL).size() == 1);
    }

    @Test
    void anEnvironmentSecretThatCannotBeSentIsRefusedWithoutRepeatingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new NodeMonitor(Map.of(AgentSettings.SECRET_ENV, "hunter2\u0007bell")));
        assertEquals("LOADWISE_AGENT_SECRET: character 8 is not allowed: a secret is sent in an HTTP header, so it "
                + "may hold only visible ASCII characters (letters, digits, punctuation; no spaces or control "
                + "characters)", e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new NodeMonitor(Map.of(AgentSettings.SECRET_ENV, "two words")));
        assertThrows(IllegalArgumentException.class,
                () -> new NodeMonitor(Map.of(AgentSettings.SECRET_ENV, "caf\u00e9")));
        assertThrows(IllegalArgumentException.class,
                () -> new NodeMonitor(Map.of(AgentSettings.SECRET_ENV, "x".repeat(1025))));
    }

    /** A copy: the monitor thread appends while the test reads (the appender appends under its own lock). */
    private List<ILoggingEvent> events() {
        synchronized (logged) {
            return List.copyOf(logged.list);
        }
    }

    private List<String> warnings(String containing) {
        return events().stream().filter(e -> e.getLevel() == Level.WARN)
                .map(ILoggingEvent::getFormattedMessage).filter(m -> m.contains(containing)).toList();
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
}
