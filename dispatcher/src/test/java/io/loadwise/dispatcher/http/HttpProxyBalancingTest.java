package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.Balance;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Which node gets each request, through the proxy, over real sockets. */
class HttpProxyBalancingTest {

    private final List<TestBackend> backends = new ArrayList<>();
    private ProxyFixture proxy;

    private TestBackend backend(String name) {
        TestBackend backend = new TestBackend(name);
        backends.add(backend);
        return backend;
    }

    @AfterEach
    void tearDown() {
        if (proxy != null) {
            proxy.close();
        }
        backends.forEach(TestBackend::close);
    }

    private Map<String, Integer> sendSequentially(int requests) throws Exception {
        return RawHttpClient.answersPerNode(proxy.address, requests);
    }

    @Test
    void roundRobinSpreadsRequestsOfOneConnectionEvenly() throws Exception {
        TestBackend a = backend("a");
        TestBackend b = backend("b");
        TestBackend c = backend("c");
        proxy = new ProxyFixture().node("a", a.address()).node("b", b.address()).node("c", c.address()).start();

        assertEquals(Map.of("a", 100, "b", 100, "c", 100), sendSequentially(300));
        proxy.assertSettled();
        assertEquals(300, proxy.cluster.counters().totalRequests());
        assertEquals(0, proxy.cluster.counters().failedRequests());
    }

    @Test
    void staticWeightedRoundRobinIsExactTwoTwoOne() throws Exception {
        TestBackend a = backend("a");
        TestBackend b = backend("b");
        TestBackend c = backend("c");
        proxy = new ProxyFixture();
        proxy.policy = "static-wrr";
        proxy.node("a", a.address(), 2, null).node("b", b.address(), 2, null).node("c", c.address(), 1, null).start();

        assertEquals(Map.of("a", 200, "b", 200, "c", 100), sendSequentially(500));
        proxy.assertSettled();
    }

    @Test
    void keepAliveReusesOneBackendConnectionPerNode() throws Exception {
        TestBackend a = backend("a");
        TestBackend b = backend("b");
        proxy = new ProxyFixture().node("a", a.address()).node("b", b.address()).start();

        for (int client = 0; client < 5; client++) {
            sendSequentially(20); // a new client connection each time, one worker loop, one pool
        }
        assertEquals(50, a.requests());
        assertEquals(50, b.requests());
        assertEquals(1, a.accepts(), "node a connections");
        assertEquals(1, b.accepts(), "node b connections");
        proxy.assertSettled();
        proxy.assertConnectionsClosed();
    }

    @Test
    void poolNeverOpensMoreThanItsLimitPerNode() throws Exception {
        TestBackend a = backend("a");
        a.delayMillis = 50;
        proxy = new ProxyFixture();
        proxy.maxConnectionsPerNode = 2;
        proxy.node("a", a.address()).start();

        List<Integer> statuses = concurrently(8, 3, "/");
        assertEquals(24, statuses.stream().filter(s -> s == 200).count());
        assertTrue(a.accepts() <= 2, "accepts " + a.accepts());
        proxy.assertSettled();
    }

    @Test
    void leastConnectionsSteersAwayFromASlowNode() throws Exception {
        TestBackend fast = backend("fast");
        TestBackend slow = backend("slow");
        slow.delayMillis = 200;
        proxy = new ProxyFixture();
        proxy.policy = "least-connections";
        proxy.node("fast", fast.address()).node("slow", slow.address()).start();

        concurrently(8, 15, "/");
        int toFast = fast.requests();
        int toSlow = slow.requests();
        assertEquals(120, toFast + toSlow);
        assertTrue(toSlow * 4 < toFast, "fast " + toFast + ", slow " + toSlow);
        proxy.assertSettled();
    }

    @Test
    void perConnectionBindsAClientToOneNodeUntilTheNodeClosesTheConnection() throws Exception {
        TestBackend a = backend("a");
        TestBackend b = backend("b");
        TestBackend c = backend("c");
        proxy = new ProxyFixture();
        proxy.balance = Balance.PER_CONNECTION;
        proxy.node("a", a.address()).node("b", b.address()).node("c", c.address()).start();

        Set<String> firstNodes = new HashSet<>();
        for (int i = 0; i < 3; i++) {
            try (RawHttpClient client = proxy.client()) {
                String node = client.get("/").header("x-node");
                for (int j = 0; j < 5; j++) {
                    assertEquals(node, client.get("/").header("x-node"), "request " + j + " of client " + i);
                }
                assertEquals(1, proxy.node(node).activeConnections(), "a bound client counts as assigned work");
                firstNodes.add(node);
            }
        }
        assertEquals(Set.of("a", "b", "c"), firstNodes);

        try (RawHttpClient client = proxy.client()) {
            String before = client.get("/").header("x-node");
            RawHttpClient.Response bye = client.get("/bye"); // the node closes its connection after this one
            assertEquals(before, bye.header("x-node"));
            assertEquals(null, bye.header("connection"), "the client connection stays open");
            String after = client.get("/").header("x-node");
            assertNotEquals(before, after, "a new node is chosen once the node connection closed");
        }
        proxy.assertSettled();
    }

    private List<Integer> concurrently(int clients, int requestsEach, String path) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Callable<List<Integer>>> tasks = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                tasks.add(() -> {
                    List<Integer> statuses = new ArrayList<>();
                    try (RawHttpClient client = proxy.client()) {
                        for (int j = 0; j < requestsEach; j++) {
                            statuses.add(client.get(path).status());
                        }
                    }
                    return statuses;
                });
            }
            List<Integer> all = new ArrayList<>();
            for (Future<List<Integer>> f : pool.invokeAll(tasks)) {
                all.addAll(f.get());
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }
}
