package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.loadwise.dispatcher.cluster.DrainProgress;
import io.loadwise.dispatcher.cluster.DrainState;
import io.loadwise.dispatcher.config.Affinity;
import io.loadwise.dispatcher.config.DrainMode;
import io.loadwise.policy.AgentSample;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code "drain": "sessions"} through the real HTTP proxy and real nodes: requests pinned by JSESSIONID route or
 * by the dispatcher's cookie keep reaching the draining node, unpinned ones never do, and once its agent reports
 * no session left even pinned ones go elsewhere. {@code "drain": true} moves pinned requests at once.
 */
class HttpProxySessionDrainTest {

    private static final long IDLE_MS = 3_600_000;

    private final List<TestBackend> backends = new ArrayList<>();
    private ProxyFixture proxy;

    @BeforeEach
    void setUp() throws Exception {
        for (String name : List.of("a", "b")) {
            backends.add(new TestBackend(name));
        }
        proxy = new ProxyFixture();
        proxy.affinity = Affinity.COOKIE;
        proxy.node("a", backends.get(0).address(), null, "jvmA").node("b", backends.get(1).address(), null, "jvmB")
                .start();
    }

    @AfterEach
    void tearDown() {
        proxy.close();
        backends.forEach(TestBackend::close);
    }

    private static AgentSample sessions(double active) {
        return new AgentSample(System.currentTimeMillis(), AgentSample.Source.POLL, Map.of("AMX_SESSIONS_ACT", active));
    }

    @Test
    void pinnedRequestsKeepGoingToASessionDrainingNodeAndNewOnesDoNot() throws Exception {
        proxy.node("a").updateAgentSample(sessions(2));
        proxy.cluster.setDrain(proxy.node("a"), DrainMode.SESSIONS, 0, IDLE_MS);
        try (RawHttpClient client = proxy.client()) {
            for (int i = 0; i < 5; i++) {
                RawHttpClient.Response routed = client.get("/cart", "Cookie: JSESSIONID=S1.jvmA");
                assertEquals("a", routed.header("x-node"), "the JSESSIONID route names the draining node");
                assertNull(routed.header("set-cookie"));
                RawHttpClient.Response cookie = client.get("/cart", "Cookie: LWROUTE=jvmA");
                assertEquals("a", cookie.header("x-node"), "our affinity cookie names it too");
            }
            for (int i = 0; i < 10; i++) {
                RawHttpClient.Response fresh = client.get("/login");
                assertEquals("b", fresh.header("x-node"), "no new session on a draining node");
                assertEquals("LWROUTE=jvmB; Path=/; HttpOnly", fresh.header("set-cookie"));
            }
        }
        DrainProgress progress = proxy.node("a").drainProgress();
        assertEquals(DrainState.DRAINING, progress.state());
        assertEquals(10, progress.pinnedLastMinute());
        assertEquals(2, progress.sessionsLeft());

        proxy.node("a").updateAgentSample(sessions(0));
        assertEquals(DrainState.DRAINED, proxy.node("a").drainProgress().state());
        try (RawHttpClient client = proxy.client()) {
            RawHttpClient.Response moved = client.get("/cart", "Cookie: JSESSIONID=S1.jvmA");
            assertEquals(200, moved.status());
            assertEquals("b", moved.header("x-node"), "drained: it drains as true, pins go elsewhere");
        }
        assertEquals(10, proxy.server.affinityCounters().hits());
        proxy.assertSettled();
    }

    @Test
    void anImmediateDrainMovesPinnedRequestsAtOnce() throws Exception {
        proxy.cluster.setDrain(proxy.node("a"), DrainMode.IMMEDIATE, 0, IDLE_MS);
        try (RawHttpClient client = proxy.client()) {
            RawHttpClient.Response moved = client.get("/cart", "Cookie: JSESSIONID=S1.jvmA");
            assertNotEquals("a", moved.header("x-node"));
        }
        assertEquals(DrainState.DRAINED, proxy.node("a").drainProgress().state());
        proxy.assertSettled();
    }

    @Test
    void switchingAnImmediateDrainToSessionsLetsPinsBackIn() throws Exception {
        assertEquals(DrainMode.NONE, proxy.cluster.setDrain(proxy.node("a"), DrainMode.IMMEDIATE, 0, IDLE_MS));
        assertEquals(DrainMode.IMMEDIATE, proxy.cluster.setDrain(proxy.node("a"), DrainMode.SESSIONS, 0, IDLE_MS));
        try (RawHttpClient client = proxy.client()) {
            assertEquals("a", client.get("/cart", "Cookie: JSESSIONID=S1.jvmA").header("x-node"));
        }
        assertEquals(DrainMode.SESSIONS, proxy.cluster.setDrain(proxy.node("a"), DrainMode.NONE, 0, IDLE_MS));
        assertNull(proxy.node("a").drainProgress());
        proxy.assertSettled();
    }
}
