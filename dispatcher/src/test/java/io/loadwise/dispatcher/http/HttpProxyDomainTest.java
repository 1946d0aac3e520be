package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.Affinity;
import io.loadwise.dispatcher.config.DrainMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Replication domains (issue 32, item 5) through the real HTTP proxy and real nodes on loopback: five nodes, {@code
 * a1 a2} in domain {@code east}, {@code b1 b2} in {@code west}, {@code c} in none, round-robin. A request pinned to a
 * node that is killed (its port refuses connections) or drained by {@code true} goes to the other node of its domain
 * and nowhere else while that one is usable; to any node once the whole domain is out; and a node in no domain
 * spreads its pinned requests over every node as before domains existed.
 */
class HttpProxyDomainTest {

    private static final long IDLE_MS = 3_600_000;
    private static final int REQUESTS = 24;

    private final Map<String, TestBackend> backends = new LinkedHashMap<>();
    private ProxyFixture proxy;

    @BeforeEach
    void setUp() throws Exception {
        for (String name : List.of("a1", "a2", "b1", "b2", "c")) {
            backends.put(name, new TestBackend(name));
        }
        proxy = new ProxyFixture();
        proxy.affinity = Affinity.COOKIE;
        proxy.nodeInDomain("a1", backends.get("a1").address(), "jvmA1", "east")
                .nodeInDomain("a2", backends.get("a2").address(), "jvmA2", "east")
                .nodeInDomain("b1", backends.get("b1").address(), "jvmB1", "west")
                .nodeInDomain("b2", backends.get("b2").address(), "jvmB2", "west")
                .nodeInDomain("c", backends.get("c").address(), "jvmC", null).start();
    }

    @AfterEach
    void tearDown() {
        proxy.close();
        backends.values().forEach(TestBackend::close);
    }

    /** Sends {@link #REQUESTS} requests carrying {@code cookie}; returns the node that answered each, all 200. */
    private List<String> pinned(String cookie) throws Exception {
        List<String> answered = new ArrayList<>();
        try (RawHttpClient client = proxy.client()) {
            for (int i = 0; i < REQUESTS; i++) {
                RawHttpClient.Response response = client.get("/cart", "Cookie: " + cookie);
                assertEquals(200, response.status(), "request " + i + " of " + cookie);
                answered.add(response.header("x-node"));
            }
        }
        return answered;
    }

    @Test
    void aKilledNodesSessionsGoToItsDomainPartnerOnly() throws Exception {
        backends.get("a1").kill(); // as SIGKILL on loopback: its port refuses connections from now on
        List<String> answered = pinned("JSESSIONID=S1.jvmA1");
        assertEquals(Set.of("a2"), new TreeSet<>(answered), "the domain partner holds the session's copy");
        assertEquals(REQUESTS, proxy.server.affinityCounters().domainPartner(),
                "the first request went to a1, failed to connect and was retried on a2; the others missed a1");
        // The dispatcher's own cookie pins the same way, and a pin to the other domain is untouched.
        assertEquals(Set.of("a2"), new TreeSet<>(pinned("LWROUTE=jvmA1")));
        assertEquals(Set.of("b1"), new TreeSet<>(pinned("JSESSIONID=S2.jvmB1")));
        proxy.assertSettled();
    }

    @Test
    void anImmediateDrainMovesPinsToThePartnerThenAnywhereOnceTheDomainIsOut() throws Exception {
        proxy.cluster.setDrain(proxy.node("b2"), DrainMode.IMMEDIATE, 0, IDLE_MS);
        assertEquals(Set.of("b1"), new TreeSet<>(pinned("JSESSIONID=S3.jvmB2")));
        assertEquals(REQUESTS, proxy.server.affinityCounters().domainPartner());

        proxy.cluster.setDrain(proxy.node("b1"), DrainMode.IMMEDIATE, 0, IDLE_MS);
        Set<String> anywhere = new TreeSet<>(pinned("JSESSIONID=S3.jvmB2"));
        assertEquals(Set.of("a1", "a2", "c"), anywhere, "the whole domain is out: the policy spreads them");
        assertEquals(REQUESTS, proxy.server.affinityCounters().domainPartner(), "no partner was usable");

        proxy.cluster.setDrain(proxy.node("b1"), DrainMode.NONE, 0, IDLE_MS);
        assertEquals(Set.of("b1"), new TreeSet<>(pinned("JSESSIONID=S3.jvmB2")), "the partner is back");
        proxy.assertSettled();
    }

    @Test
    void aSessionDrainKeepsPinsOnTheNodeItself() throws Exception {
        proxy.cluster.setDrain(proxy.node("a2"), DrainMode.SESSIONS, 0, IDLE_MS);
        assertEquals(Set.of("a2"), new TreeSet<>(pinned("JSESSIONID=S4.jvmA2")));
        assertEquals(0, proxy.server.affinityCounters().domainPartner());
        proxy.assertSettled();
    }

    @Test
    void aNodeInNoDomainBehavesAsBefore() throws Exception {
        backends.get("c").kill();
        List<String> answered = pinned("JSESSIONID=S5.jvmC");
        Set<String> nodes = new TreeSet<>(answered);
        assertTrue(nodes.size() >= 3 && !nodes.contains("c"), "spread by the policy over the others: " + answered);
        assertEquals(0, proxy.server.affinityCounters().domainPartner());
        assertEquals(REQUESTS - 1, proxy.server.affinityCounters().misses(), "the first was a hit, then retried");
        proxy.assertSettled();
    }

    @Test
    void thePartnerIsPassedOverWhenItIsKilledToo() throws Exception {
        backends.get("a1").kill();
        backends.get("a2").kill();
        List<String> answered = pinned("JSESSIONID=S6.jvmA1");
        Set<String> nodes = new TreeSet<>(answered);
        assertTrue(!nodes.contains("a1") && !nodes.contains("a2") && nodes.size() >= 2, answered.toString());
        proxy.assertSettled();
    }
}
