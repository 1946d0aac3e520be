package io.loadwise.dispatcher.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.loadwise.dispatcher.cluster.AgentState;
import io.loadwise.dispatcher.cluster.DrainState;
import io.loadwise.dispatcher.config.DrainMode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.monitor.AppNode.Agent;
import io.loadwise.dispatcher.testsupport.Await;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Under a policy that reads no agent, a draining node's agent is polled all the same: its session count ends a
 * session drain, and its reports tell a rolling restart that a restarted node is back. Real node, real runtime.
 */
class DrainingAgentPollTest {

    @TempDir
    Path dir;

    private final List<AppNode> nodes = new ArrayList<>();
    private ShortTimingDispatcher proxy;

    @AfterEach
    void stop() {
        if (proxy != null) {
            proxy.close();
        }
        nodes.forEach(AppNode::close);
    }

    @Test
    void aSessionDrainingNodesAgentCountEndsTheDrainUnderRoundRobin() throws Exception {
        AppNode a = new AppNode("a", Agent.METRICS).metrics(Map.of("AMX_SESSIONS_ACT", 4.0));
        nodes.add(a);
        nodes.add(new AppNode("b", Agent.NONE));
        proxy = new ShortTimingDispatcher(dir, "round-robin", nodes);
        assertNull(proxy.node("a").agentSample(), "round-robin: no agent polled yet");

        proxy.cluster().setDrain(proxy.node("a"), DrainMode.SESSIONS, 0, NodeConfig.DEFAULT_SESSION_IDLE_MS);
        Await.until("a's agent polled while it drains", () -> proxy.node("a").agentState() == AgentState.OK);
        assertEquals(4, proxy.node("a").drainProgress().sessionsLeft());
        assertEquals(DrainState.DRAINING, proxy.node("a").drainProgress().state());

        a.metrics(Map.of("AMX_SESSIONS_ACT", 0.0));
        Await.until("0 sessions reported", () -> proxy.node("a").drainProgress().state() == DrainState.DRAINED);
    }

    @Test
    void anImmediatelyDrainingNodesAgentIsPolledToo() throws Exception {
        nodes.add(new AppNode("a", Agent.METRICS).metrics(Map.of("AMX_SESSIONS_ACT", 2.0)));
        nodes.add(new AppNode("b", Agent.NONE));
        proxy = new ShortTimingDispatcher(dir, "round-robin", nodes);
        proxy.cluster().setDraining(proxy.node("a"), true);
        Await.until("a's agent polled while it drains", () -> proxy.node("a").agentState() == AgentState.OK);
        assertEquals(2, proxy.node("a").drainProgress().sessionsLeft());
    }
}
