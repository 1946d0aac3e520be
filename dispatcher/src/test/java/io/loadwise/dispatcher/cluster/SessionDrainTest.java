package io.loadwise.dispatcher.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.DrainMode;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.policy.AgentSample;
import io.loadwise.policy.PolicyRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@code "drain": "sessions"} on a real {@link NodeState}, on a clock the test moves: pinned work goes on, new
 * work does not, and the wait ends on the agent's session count, on idle time without it, or at the deadline.
 */
class SessionDrainTest {

    private static final long IDLE_MS = 60_000;
    private static final long EXPIRY_MS = 3_000;

    private final AtomicLong now = new AtomicLong(5_000_000_000L);
    private final NodeState node = new NodeState(0, new NodeConfig("n1", "127.0.0.1:8080", 1, true, "jvm1", null),
            "/loadwise-agent/metrics", EXPIRY_MS, now::get);

    private void advanceMillis(long millis) {
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    private static AgentSample sessions(double active) {
        return new AgentSample(0, AgentSample.Source.POLL, Map.of("AMX_SESSIONS_ACT", active, "OS_CPU_USED%", 5.0));
    }

    @Test
    void aSessionDrainTakesNoNewWorkButKeepsPinnedWork() {
        assertEquals(DrainMode.NONE, node.setDrain(DrainMode.SESSIONS, 0, IDLE_MS));
        assertFalse(node.enabled(), "policies see it disabled: no new session, no unpinned request");
        assertFalse(node.usable());
        assertFalse(node.inService());
        assertTrue(node.keepsPinnedWork(), "a request whose affinity names it still goes to it");
        assertTrue(node.keepsPinnedWork());
        DrainProgress progress = node.drainProgress();
        assertEquals(DrainMode.SESSIONS, progress.mode());
        assertEquals(DrainState.DRAINING, progress.state());
        assertEquals(2, progress.pinnedLastMinute());
        assertEquals(-1, progress.sessionsLeft(), "no agent sample: unknown");
        assertEquals(IDLE_MS, progress.sessionIdleMs());
        assertEquals(0, progress.deadlineAtMillis());
    }

    @Test
    void anImmediateDrainRefusesPinnedWork() {
        node.setDrain(DrainMode.IMMEDIATE, 0, IDLE_MS);
        assertFalse(node.keepsPinnedWork());
        assertEquals(DrainState.DRAINED, node.drainProgress().state(), "nothing in flight");
        node.requestSent();
        assertEquals(DrainState.DRAINING, node.drainProgress().state());
        assertEquals(1, node.drainProgress().inFlightRequests());
        node.requestEnded(-1);
        assertEquals(DrainState.DRAINED, node.drainProgress().state());
    }

    @Test
    void theAgentsSessionCountEndsTheWait() {
        node.setDrain(DrainMode.SESSIONS, 0, IDLE_MS);
        node.updateAgentSample(sessions(3));
        assertTrue(node.keepsPinnedWork());
        assertEquals(3, node.drainProgress().sessionsLeft());
        advanceMillis(IDLE_MS * 5);
        node.updateAgentSample(sessions(1));
        assertEquals(DrainState.DRAINING, node.drainProgress().state(),
                "while the agent counts sessions, idle time alone does not end the wait");
        node.updateAgentSample(sessions(0));
        assertEquals(DrainState.DRAINED, node.drainProgress().state());
        assertEquals(0, node.drainProgress().sessionsLeft());
        assertFalse(node.keepsPinnedWork(), "drained: it drains as true from now on");
        node.updateAgentSample(sessions(2));
        assertEquals(DrainState.DRAINED, node.drainProgress().state(), "the end is latched");
        assertFalse(node.keepsPinnedWork());
    }

    @Test
    void aDrainedNodeWithRequestsInFlightIsStillDraining() {
        node.setDrain(DrainMode.SESSIONS, 0, IDLE_MS);
        node.requestSent();
        node.updateAgentSample(sessions(0));
        assertEquals(DrainState.DRAINING, node.drainProgress().state());
        node.requestEnded(-1);
        assertEquals(DrainState.DRAINED, node.drainProgress().state());
    }

    @Test
    void withoutTheAgentNoPinnedRequestForSessionIdleMsEndsTheWait() {
        node.setDrain(DrainMode.SESSIONS, 0, IDLE_MS);
        advanceMillis(IDLE_MS - 1);
        assertTrue(node.keepsPinnedWork(), "a pinned request restarts the idle time");
        assertEquals(1, node.drainProgress().pinnedLastMinute());
        advanceMillis(IDLE_MS - 1);
        assertEquals(DrainState.DRAINING, node.drainProgress().state());
        advanceMillis(1);
        assertEquals(DrainState.DRAINED, node.drainProgress().state());
        assertFalse(node.keepsPinnedWork());
        assertEquals(0, node.drainProgress().pinnedLastMinute());
    }

    @Test
    void anAgentThatFallsSilentFallsBackToIdleTime() {
        node.setDrain(DrainMode.SESSIONS, 0, IDLE_MS);
        node.updateAgentSample(sessions(4));
        advanceMillis(EXPIRY_MS + 1);
        assertEquals(-1, node.drainProgress().sessionsLeft(), "the sample expired");
        advanceMillis(IDLE_MS);
        assertEquals(DrainState.DRAINED, node.drainProgress().state());
    }

    @Test
    void theDeadlineEndsTheWaitAndTheNodeDrainsAsTrue() {
        node.setDrain(DrainMode.SESSIONS, 10_000, IDLE_MS);
        node.updateAgentSample(sessions(7));
        DrainProgress started = node.drainProgress();
        assertEquals(started.startedAtMillis() + 10_000, started.deadlineAtMillis());
        advanceMillis(9_999);
        node.updateAgentSample(sessions(7));
        assertTrue(node.keepsPinnedWork());
        advanceMillis(1);
        assertFalse(node.keepsPinnedWork(), "deadline passed: pinned requests go elsewhere");
        assertEquals(DrainState.DEADLINE_PASSED, node.drainProgress().state());
        assertEquals(7, node.drainProgress().sessionsLeft(), "the sessions it leaves behind");
    }

    @Test
    void aDisabledOrUnhealthyDrainingNodeKeepsNoPinnedWork() {
        node.setDrain(DrainMode.SESSIONS, 0, IDLE_MS);
        node.setEnabled(false);
        assertFalse(node.keepsPinnedWork());
        node.setEnabled(true);
        node.markConnectFailure(1_000);
        assertFalse(node.keepsPinnedWork(), "a node that refuses connections is no place for a pin");
        advanceMillis(1_000);
        assertTrue(node.keepsPinnedWork());
    }

    @Test
    void switchingModesSaysWhatItWasAndASecondDrainOfTheSameModeChangesNothing() {
        assertEquals(DrainMode.NONE, node.setDrain(DrainMode.SESSIONS, 0, IDLE_MS));
        assertTrue(node.keepsPinnedWork());
        advanceMillis(1_000);
        assertEquals(DrainMode.SESSIONS, node.setDrain(DrainMode.SESSIONS, 5, 1));
        assertEquals(IDLE_MS, node.drainProgress().sessionIdleMs(), "the running drain goes on unchanged");
        assertEquals(1, node.drainProgress().pinnedLastMinute());
        assertEquals(DrainMode.SESSIONS, node.setDrain(DrainMode.IMMEDIATE, 0, IDLE_MS));
        assertFalse(node.keepsPinnedWork());
        assertEquals(DrainMode.IMMEDIATE, node.drainProgress().mode());
        assertEquals(DrainMode.IMMEDIATE, node.setDrain(DrainMode.SESSIONS, 0, IDLE_MS));
        assertEquals(0, node.drainProgress().pinnedLastMinute(), "a new session drain starts afresh");
        assertEquals(DrainMode.SESSIONS, node.setDrain(DrainMode.NONE, 0, IDLE_MS));
        assertNull(node.drainProgress());
        assertTrue(node.enabled());
        assertTrue(node.usable());
    }

    @Test
    void aDrainInTheConfigurationAppliesFromTheStart() {
        NodeState configured = new NodeState(1, new NodeConfig("n2", "127.0.0.1:8081", null, null, null, null, null,
                null, null, null, null, DrainMode.SESSIONS), "/m", EXPIRY_MS, now::get);
        assertEquals(DrainMode.SESSIONS, configured.drainMode());
        assertEquals(NodeConfig.DEFAULT_SESSION_IDLE_MS, configured.drainProgress().sessionIdleMs());
        assertTrue(configured.keepsPinnedWork());
        assertFalse(configured.enabled());
    }

    @Test
    void theClusterRefusesASessionDrainWithoutIdleTime() {
        VirtualCluster cluster = new VirtualCluster(ClusterConfig.builder().name("c").mode(Mode.HTTP)
                .listen("127.0.0.1:0").policy("round-robin")
                .nodes(List.of(new NodeConfig("n1", "127.0.0.1:8080", 1, true, null, null))).build(),
                PolicyRegistry.load(), now::get);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> cluster.setDrain(cluster.node("n1"), DrainMode.SESSIONS, 0, 0));
        assertTrue(e.getMessage().startsWith("sessionIdleMs 0"), e.getMessage());
    }
}
