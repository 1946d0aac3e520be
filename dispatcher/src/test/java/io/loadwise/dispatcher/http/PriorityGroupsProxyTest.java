package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.cluster.HealthState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.Affinity;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.HealthCheckConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.health.HealthChecker;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.net.TransportKind;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.dispatcher.http2.Http2Frontend;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Backup groups and panic end to end (issue 32): real nodes on loopback, the real HTTP proxy and real active
 * health checks every 50 ms. A node "goes down" by answering its health check with 503 while it still serves
 * requests, so panic can be told apart from normal selection.
 */
class PriorityGroupsProxyTest {

    private final List<TestBackend> backends = new ArrayList<>();
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private VirtualCluster cluster;
    private Transport transport;
    private HttpProxyServer server;
    private HealthChecker checker;
    private InetSocketAddress address;

    @AfterEach
    void tearDown() {
        if (checker != null) {
            checker.close();
        }
        scheduler.shutdownNow();
        if (server != null) {
            server.close();
            transport.close();
        }
        backends.forEach(TestBackend::close);
    }

    private TestBackend backend(String name) {
        TestBackend backend = new TestBackend(name);
        backends.add(backend);
        return backend;
    }

    private static NodeConfig node(TestBackend b, Integer priority, Boolean backup) {
        return new NodeConfig(b.name(), b.address(), null, null, b.name(), null, null, null, null, priority, backup);
    }

    private void start(ClusterConfig.Builder config) throws Exception {
        cluster = new VirtualCluster(config.name("web").mode(Mode.HTTP).listen("127.0.0.1:0").policy("round-robin")
                .connectTimeoutMs(1_000).unhealthyRetryMs(60_000)
                .healthCheck(new HealthCheckConfig("/health", 50, 1_000, 1, 1, "200-399")).build(),
                ProxyFixture.POLICIES, System::nanoTime);
        transport = new Transport(1, TransportKind.AUTO);
        server = new HttpProxyServer(cluster, transport, null, Http2Frontend::new);
        address = server.start();
        checker = new HealthChecker(cluster, HttpClient.newHttpClient(), scheduler, System::currentTimeMillis);
        checker.start();
        Await.until("every node checked", () -> cluster.nodes().stream()
                .allMatch(n -> n.health().state() != HealthState.UNKNOWN));
    }

    private Map<String, Integer> send(int requests) throws Exception {
        return RawHttpClient.answersPerNode(address, requests);
    }

    @Test
    void trafficMovesToTheBackupWhenThePrimariesGoDownAndReturnsWhenTheyRecover() throws Exception {
        TestBackend p1 = backend("p1");
        TestBackend p2 = backend("p2");
        TestBackend b1 = backend("b1");
        start(ClusterConfig.builder().nodes(List.of(node(p1, null, null), node(p2, null, null),
                node(b1, null, true))));
        assertEquals(Map.of("p1", 5, "p2", 5), send(10), "the backup takes nothing while a primary is usable");

        p1.healthStatus = 503;
        Await.until("p1 down", () -> cluster.node("p1").health().state() == HealthState.DOWN);
        assertEquals(Map.of("p2", 10), send(10), "minActive 1: one usable primary is enough");

        p2.healthStatus = 503;
        Await.until("the backup group in use", () -> cluster.groupVerdict().backupActive());
        assertFalse(cluster.groupVerdict().panic(), "a whole backup group makes up for the primaries: no panic");
        assertEquals(Map.of("b1", 10), send(10));

        p1.healthStatus = 200;
        p2.healthStatus = 200;
        Await.until("both primaries back", () -> !cluster.groupVerdict().backupActive()
                && cluster.groupVerdict().usableNodes() == 2);
        assertEquals(Map.of("p1", 5, "p2", 5), send(10));
        assertEquals(0, cluster.groupVerdict().activePriority());
    }

    @Test
    void aSessionPinnedToTheBackupStaysThereWhenThePrimariesReturn() throws Exception {
        TestBackend p1 = backend("p1");
        TestBackend b1 = backend("b1");
        start(ClusterConfig.builder().affinity(Affinity.COOKIE).nodes(List.of(node(p1, null, null),
                node(b1, null, true))));
        p1.healthStatus = 503;
        Await.until("the backup group in use", () -> cluster.groupVerdict().backupActive());
        try (RawHttpClient client = new RawHttpClient(address)) {
            assertEquals("b1", client.get("/").header("x-node"));
        }
        p1.healthStatus = 200;
        Await.until("back to the primary", () -> !cluster.groupVerdict().backupActive());
        try (RawHttpClient client = new RawHttpClient(address)) {
            RawHttpClient.Response pinned = client.get("/", "Cookie: JSESSIONID=abc.b1");
            assertEquals("b1", pinned.header("x-node"), "as HAProxy: a session on a backup server stays there");
            assertEquals("p1", client.get("/").header("x-node"), "new work goes to the primary");
        }
    }

    @Test
    void panicSpreadsOverUnhealthyNodesThatAcceptConnectionsButNotOverDeadOnes() throws Exception {
        TestBackend a = backend("a");
        TestBackend b = backend("b");
        TestBackend c = backend("c");
        TestBackend d = backend("d");
        start(ClusterConfig.builder().nodes(List.of(node(a, null, null), node(b, null, null), node(c, null, null),
                node(d, null, null))));
        b.healthStatus = 503;
        c.healthStatus = 503;
        d.healthStatus = 503;
        Await.until("panic", () -> cluster.groupVerdict().panic());
        assertEquals(Map.of("a", 5, "b", 5, "c", 5, "d", 5), send(20),
                "1 of 4 usable is below 50 %: every node that accepts connections takes its share");

        d.kill(); // it accepts no connection any more: the connect failure takes it out, panic or not
        Map<String, Integer> afterKill = send(30);
        assertEquals(null, afterKill.get("d"));
        assertEquals(30, afterKill.values().stream().mapToInt(Integer::intValue).sum(), "every request answered");
        assertTrue(cluster.node("d").connectDown());

        b.healthStatus = 200;
        c.healthStatus = 200;
        Await.until("b and c usable again", () -> cluster.groupVerdict().usableNodes() == 3);
        assertFalse(cluster.groupVerdict().panic(), "3 of 4 usable");
        assertEquals(Map.of("a", 5, "b", 5, "c", 5), send(15));
    }

    @Test
    void withPanicOffOnlyTheHealthyNodeTakesWork() throws Exception {
        TestBackend a = backend("a");
        TestBackend b = backend("b");
        TestBackend c = backend("c");
        start(ClusterConfig.builder().panicThresholdPercent(0).nodes(List.of(node(a, null, null),
                node(b, null, null), node(c, null, null))));
        b.healthStatus = 503;
        c.healthStatus = 503;
        Await.until("b and c down", () -> !cluster.node("b").inService() && !cluster.node("c").inService());
        Await.until("judged", () -> cluster.groupVerdict().usableNodes() == 1);
        assertFalse(cluster.groupVerdict().panic());
        assertEquals(Map.of("a", 12), send(12));
    }
}
