package io.loadwise.dispatcher.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.cluster.AgentState;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.monitor.AppNode.Agent;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.policy.AgentSample;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 11, item 4: an agent-driven policy over nodes whose agents are silent (no agent: 404; a page that
 * is no metrics document) must keep serving through every node, before and after the samples would have
 * expired. Real nodes, the real dispatcher runtime, real HTTP clients.
 */
class AgentlessClusterTest {

    /** Every metric the four agent-driven policies read, for the node that does run an agent. */
    private static final Map<String, Double> FULL_METRICS = Map.of("OS_CPU_USED%", 30.0, "OS_MEM_USED%", 40.0,
            "OS_CPU_IOWAIT%", 5.0, "AMX_SESSIONS_ACT", 12.0, "JVM_HEAP_USED%", 45.0, "AMX_CONNS_Q_USED%", 10.0);

    @TempDir
    Path dir;

    private final List<AppNode> nodes = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private ShortTimingDispatcher proxy;

    @AfterEach
    void stop() {
        if (proxy != null) {
            proxy.close();
        }
        nodes.forEach(AppNode::close);
    }

    private AppNode node(String name, Agent agent) {
        AppNode node = new AppNode(name, agent);
        nodes.add(node);
        return node;
    }

    @ParameterizedTest
    @ValueSource(strings = {"jvm-aware", "f5-dynamic-ratio", "least-loaded", "least-sessions"})
    void switchedToAnAgentDrivenPolicyAClusterWithoutAgentsKeepsServingThroughEveryNode(String policy)
            throws Exception {
        node("a", Agent.NONE);
        node("b", Agent.NONE);
        node("c", Agent.GARBAGE);
        proxy = new ShortTimingDispatcher(dir, "round-robin", nodes);
        proxy.switchPolicy(policy);

        assertSpread(30, "right after the switch");
        proxy.awaitReportedSilent("a", "b", "c");
        assertSpread(30, "after " + ShortTimingDispatcher.EXPIRY_MS + " ms without any agent sample");

        for (String name : List.of("a", "b", "c")) {
            NodeState node = proxy.node(name);
            assertTrue(node.healthy(), name + " is serving, so it is healthy");
            assertEquals(AgentState.UNKNOWN, node.agentState(), name);
            assertNull(node.agentSample(), name);
        }
        assertEquals("agent answered HTTP 404", proxy.node("a").agentProblem());
        assertEquals("malformed metrics document", proxy.node("c").agentProblem());
    }

    @ParameterizedTest
    @ValueSource(strings = {"jvm-aware", "f5-dynamic-ratio", "least-loaded", "least-sessions"})
    void aMixedClusterServesThroughEveryNode(String policy) throws Exception {
        node("a", Agent.METRICS).metrics(FULL_METRICS);
        node("b", Agent.NONE);
        node("c", Agent.GARBAGE);
        proxy = new ShortTimingDispatcher(dir, policy, nodes);
        Await.until("a's agent polled", () -> proxy.node("a").agentState() == AgentState.OK);
        proxy.awaitReportedSilent("b", "c");

        // One known node: every unknown one counts as an average node, which here is a node like a.
        assertSpread(60, "with one node known and two unknown");
        assertEquals(AgentState.OK, proxy.node("a").agentState());
        assertEquals(AgentState.UNKNOWN, proxy.node("b").agentState());
        assertEquals(AgentState.UNKNOWN, proxy.node("c").agentState());
    }

    @Test
    void aPiggybackedLoadReportEndsTheUnknownStateAtOnce() throws Exception {
        node("a", Agent.NONE).piggyback(Map.of("JVM_HEAP_USED%", 40.0, "OS_CPU_USED%", 20.0));
        node("b", Agent.NONE);
        proxy = new ShortTimingDispatcher(dir, "jvm-aware", nodes);
        proxy.awaitReportedSilent("a", "b");
        assertEquals(AgentState.UNKNOWN, proxy.node("a").agentState());

        Await.until("a request reached a", () -> proxy.request(http).equals("a"));
        NodeState a = proxy.node("a");
        Await.until("the piggybacked report made a's agent OK", () -> a.agentState() == AgentState.OK);
        assertEquals(AgentSample.Source.PIGGYBACK, a.agentSample().source());
        assertNull(a.agentProblem());
        assertFalse(proxy.stats("a").silent(), "a report is a sign of life");
        assertTrue(proxy.stats("b").silent());
    }

    /** Sends {@code count} requests one after another: all succeed, and each node answers a fair share. */
    private void assertSpread(int count, String when) {
        Map<String, Integer> answered = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            answered.merge(proxy.request(http), 1, Integer::sum);
        }
        for (AppNode node : nodes) {
            int got = answered.getOrDefault(node.name, 0);
            assertTrue(got >= count / nodes.size() / 2, when + ": node " + node.name + " answered " + got
                    + " of " + count + " requests " + answered);
        }
    }
}
