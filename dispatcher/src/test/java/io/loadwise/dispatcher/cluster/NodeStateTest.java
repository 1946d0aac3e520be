package io.loadwise.dispatcher.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.policy.AgentSample;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The agent state of a node, on a clock the test moves: only connect failures take a node out. */
class NodeStateTest {

    private static final long EXPIRY_MS = 3_000;

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final NodeState node = new NodeState(0, new NodeConfig("n1", "127.0.0.1:8080", 1, true, null, null),
            "/loadwise-agent/metrics", EXPIRY_MS, now::get);

    private static AgentSample sample() {
        return new AgentSample(0, AgentSample.Source.POLL, Map.of("OS_CPU_USED%", 20.0));
    }

    private void advanceMillis(long millis) {
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    @Test
    void aNewNodeIsUnknownYetHealthy() {
        assertEquals(AgentState.UNKNOWN, node.agentState());
        assertEquals("no sample yet", node.agentProblem());
        assertNull(node.agentSample());
        assertEquals(-1, node.agentSampleAgeMillis());
        assertTrue(node.healthy());
        assertTrue(node.usable());
    }

    @Test
    void aSampleMakesTheAgentOkAndItsExpiryMakesItUnknownAgain() {
        node.updateAgentSample(sample());
        assertEquals(AgentState.OK, node.agentState());
        assertNull(node.agentProblem());

        advanceMillis(EXPIRY_MS);
        assertEquals(AgentState.OK, node.agentState(), "exactly at the expiry the sample still counts");
        advanceMillis(1);
        assertEquals(AgentState.UNKNOWN, node.agentState());
        assertEquals("no sample for more than 3000 ms", node.agentProblem());
        assertNull(node.agentSample(), "policies no longer see the expired sample");
        assertEquals(EXPIRY_MS + 1, node.agentSampleAgeMillis(), "the last good sample's age is kept");
        assertTrue(node.healthy(), "an expired sample takes no node out");
    }

    @Test
    void aFailedPollChangesNothingWhileAFreshSampleVouchesForTheAgent() {
        node.updateAgentSample(sample());
        advanceMillis(1_000);
        assertFalse(node.agentSilent("HttpTimeoutException: request timed out"));
        assertEquals(AgentState.OK, node.agentState());
        assertNull(node.agentProblem());
    }

    @Test
    void aFailedPollAfterTheExpiryMakesAnOkAgentUnknownOnce() {
        node.updateAgentSample(sample());
        advanceMillis(EXPIRY_MS + 1);
        assertTrue(node.agentSilent("agent answered HTTP 404"), "OK to UNKNOWN: the picker must be rebuilt");
        assertEquals(AgentState.UNKNOWN, node.agentState());
        assertEquals("agent answered HTTP 404", node.agentProblem());
        assertFalse(node.agentSilent("malformed metrics document"), "already unknown");
        assertEquals("malformed metrics document", node.agentProblem(), "the latest problem is shown");

        node.updateAgentSample(sample());
        assertEquals(AgentState.OK, node.agentState(), "any good sample ends it at once");
    }

    @Test
    void aNodeThatNeverAnsweredStaysUnknownWithTheLatestProblem() {
        assertFalse(node.agentSilent("ConnectException"), "was never OK: nothing to rebuild");
        assertEquals(AgentState.UNKNOWN, node.agentState());
        assertEquals("ConnectException", node.agentProblem());
    }

    @Test
    void onlyAConnectFailureTakesTheNodeOutAndOnlyForTheRetryInterval() {
        node.agentSilent("agent answered HTTP 404");
        assertTrue(node.healthy());
        node.markConnectFailure(500);
        assertFalse(node.healthy());
        assertTrue(node.connectDown());
        advanceMillis(500);
        assertTrue(node.healthy());
        assertSame(AgentState.UNKNOWN, node.agentState());
    }

    @Test
    void aGatedNodeComesBackFromConnectFailuresOnlyWhenItIsReady() {
        node.setReadinessGated(true);
        node.markConnectFailure(500);
        assertTrue(node.awaitingReadiness());
        advanceMillis(60_000);
        assertFalse(node.connectDown(), "the retry interval is over");
        assertFalse(node.healthy(), "but the application has not answered");
        node.markConnectSuccess(); // a connect alone, as the proxy's pool reports it
        assertFalse(node.usable(), "accepting connections is not serving");
        assertTrue(node.markReady());
        assertTrue(node.usable());
        assertFalse(node.markReady(), "nothing held it out any more");
    }

    @Test
    void anUngatedNodeComesBackAfterItsRetryIntervalAsBefore() {
        node.markConnectFailure(500);
        assertFalse(node.awaitingReadiness(), "nothing could say it is ready: no agent, no health check");
        advanceMillis(500);
        assertTrue(node.usable());
    }

    @Test
    void aNodeHeldUntilReadyWithoutAConnectFailureIsOutUntilReady() {
        assertTrue(node.holdUntilReady());
        assertFalse(node.holdUntilReady(), "held already");
        assertFalse(node.usable());
        assertFalse(node.connectDown());
        node.markReady();
        assertTrue(node.usable());
    }

    @Test
    void failedExchangesShowForOneSecondOnTheNodesClock() {
        assertEquals(0, node.recentFailures());
        node.requestSent();
        node.requestFailed();
        node.requestEnded(-1);
        assertEquals(1, node.recentFailures(), "what the adaptive policy counts as work on the node");
        assertEquals(0, node.inFlightRequests());
        advanceMillis(1_100);
        assertEquals(0, node.recentFailures(), "out of the window a second later");
    }
}
