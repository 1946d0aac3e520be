package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Every error the proxy answers by itself, and what it does to the counters. */
class HttpProxyErrorsTest {

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

    /**
     * The soak's 504s (issue 35): a policy kept picking a node whose one connection was busy; the request waited for
     * it past the deadline and failed, though it had never left the proxy. It now waits for another node, whatever
     * its method (this one is a POST): nothing of it reached the first node.
     */
    @Test
    void aRequestThatGotNoConnectionInTimeGoesToAnotherNode() throws Exception {
        TestBackend a = backend("a");
        TestBackend b = backend("b");
        proxy = new ProxyFixture();
        proxy.policy = io.loadwise.testsupport.TestFirstUsablePolicy.ID; // a, while it is usable
        proxy.maxConnectionsPerNode = 1;
        proxy.responseTimeoutMs = 400;
        proxy.node("a", a.address()).node("b", b.address()).start();
        try (RawHttpClient holder = proxy.client(); RawHttpClient second = proxy.client()) {
            holder.write("GET /slow-body HTTP/1.1\r\nHost: x\r\n\r\n"); // a's one connection, busy for 2 s
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (a.requests() < 1 && System.nanoTime() < deadline) {
                Thread.onSpinWait(); // polled until the deadline
            }
            assertEquals(1, a.requests(), "a serves the first request");
            second.write("POST /form HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc");
            RawHttpClient.Response answer = second.read(false);
            assertEquals(200, answer.status());
            assertEquals(List.of("b"), answer.headers().get("x-node"));
            assertEquals(1, a.requests(), "the POST never reached a");
            assertEquals(1, proxy.cluster.counters().totalRetries(), "counted as the retry it is");
            assertEquals(200, holder.read(false).status(), "the first finishes on a");
        }
        proxy.assertSettled();
    }

    private static String deadAddress() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return "127.0.0.1:" + socket.getLocalPort(); // nothing listens there once closed
        }
    }

    private RawHttpClient.Response sendRaw(String request) throws IOException {
        try (RawHttpClient client = proxy.client()) {
            client.write(request);
            RawHttpClient.Response response = client.read(false);
            assertTrue(client.closedWithin(2_000), "connection closed after the error");
            return response;
        }
    }

    @Test
    void malformedRequestsGet400AndTheConnectionIsClosed() throws Exception {
        TestBackend a = backend("a");
        proxy = new ProxyFixture().node("a", a.address()).start();

        RawHttpClient.Response badVersion = sendRaw("GET / HTTX/9.9\r\nHost: x\r\n\r\n");
        assertEquals(400, badVersion.status());
        assertEquals("close", badVersion.header("connection"));
        assertTrue(badVersion.text().startsWith("400 Bad Request"), badVersion.text());
        assertEquals(400, sendRaw("GET / HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n").status());
        assertEquals(400, sendRaw("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabc")
                .status());
        assertEquals(0, a.requests(), "nothing malformed reaches a node");
        proxy.assertSettled();
        assertEquals(3, proxy.cluster.counters().failedRequests());
    }

    @Test
    void oversizedHeadersGet431AndAnOversizedRequestLine414() throws Exception {
        TestBackend a = backend("a");
        proxy = new ProxyFixture();
        proxy.maxHeaderBytes = 4096;
        proxy.node("a", a.address()).start();

        RawHttpClient.Response fits;
        try (RawHttpClient client = proxy.client()) {
            fits = client.get("/", "X-Big: " + "v".repeat(3000));
        }
        assertEquals(200, fits.status());
        RawHttpClient.Response headers = sendRaw("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + "v".repeat(5000) + "\r\n\r\n");
        assertEquals(431, headers.status());
        assertTrue(headers.text().contains("4096"), headers.text());
        RawHttpClient.Response line = sendRaw("GET /" + "p".repeat(5000) + " HTTP/1.1\r\nHost: x\r\n\r\n");
        assertEquals(414, line.status());
        assertEquals(1, a.requests());
        proxy.assertSettled();
    }

    @Test
    void unreachableNodeIsRetriedOnAnotherAndMarkedDown() throws Exception {
        TestBackend live = backend("live");
        proxy = new ProxyFixture().node("dead", deadAddress()).node("live", live.address()).start();

        try (RawHttpClient client = proxy.client()) {
            for (int i = 0; i < 10; i++) {
                RawHttpClient.Response response = client.get("/");
                assertEquals(200, response.status());
                assertEquals("live", response.header("x-node"));
            }
        }
        assertTrue(proxy.node("dead").connectDown(), "a failed connect takes the node out of selection");
        assertFalse(proxy.node("dead").usable());
        assertEquals(10, live.requests());
        proxy.assertSettled();
        assertEquals(0, proxy.cluster.counters().failedRequests());
        assertEquals(0, proxy.node("dead").counters().totalRequests(), "nothing was sent to the dead node");
    }

    @Test
    void whenNoNodeCanBeReachedTheClientGets502() throws Exception {
        proxy = new ProxyFixture().node("dead1", deadAddress()).node("dead2", deadAddress()).start();

        try (RawHttpClient client = proxy.client()) {
            RawHttpClient.Response response = client.get("/");
            assertEquals(502, response.status());
            assertEquals(null, response.header("connection"), "a complete request keeps its connection");
            assertEquals(503, client.get("/").status(), "both nodes are now out of selection");
        }
        proxy.assertSettled();
        assertEquals(2, proxy.cluster.counters().failedRequests());
    }

    @Test
    void noUsableNodeGives503() throws Exception {
        TestBackend a = backend("a");
        proxy = new ProxyFixture().node("a", a.address()).start();
        proxy.cluster.setEnabled(proxy.node("a"), false);

        try (RawHttpClient client = proxy.client()) {
            RawHttpClient.Response response = client.get("/");
            assertEquals(503, response.status());
            assertTrue(response.text().contains("no usable node"), response.text());
            proxy.cluster.setEnabled(proxy.node("a"), true);
            assertEquals(200, client.get("/").status(), "same connection, node back");
        }
        proxy.assertSettled();
    }

    @Test
    void slowNodeGives504AfterTheResponseTimeout() throws Exception {
        TestBackend slow = backend("slow");
        slow.delayMillis = 5_000;
        proxy = new ProxyFixture();
        proxy.responseTimeoutMs = 300;
        proxy.node("slow", slow.address()).start();

        long start = System.nanoTime();
        try (RawHttpClient client = proxy.client()) {
            RawHttpClient.Response response = client.get("/");
            long elapsedMs = (System.nanoTime() - start) / 1_000_000;
            assertEquals(504, response.status());
            assertTrue(elapsedMs >= 300 && elapsedMs < 4_000, "answered after " + elapsedMs + " ms");
        }
        proxy.assertSettled();
        assertEquals(1, proxy.node("slow").counters().failedRequests());
    }

    @Test
    void fastRequestsOnALongLivedConnectionNeverTimeOut() throws Exception {
        TestBackend a = backend("a");
        proxy = new ProxyFixture();
        // Short enough that a timer leaking from one exchange into the next would fire within the run,
        // long enough that a loaded 2-core build machine answers every request in time.
        proxy.responseTimeoutMs = 500;
        proxy.idleTimeoutMs = 900;
        proxy.node("a", a.address()).start();

        long end = System.nanoTime() + 3_000_000_000L; // several timeout and idle periods
        int requests = 0;
        try (RawHttpClient client = proxy.client()) {
            while (System.nanoTime() < end) {
                assertEquals(200, client.get("/").status(), "request " + requests);
                requests++;
            }
        }
        assertTrue(requests > 10, "only " + requests + " requests");
        proxy.assertSettled();
        assertEquals(0, proxy.cluster.counters().failedRequests());
    }

    @Test
    void idleClientConnectionIsClosedButNotWhileARequestIsInFlight() throws Exception {
        TestBackend a = backend("a");
        a.delayMillis = 700;
        proxy = new ProxyFixture();
        proxy.idleTimeoutMs = 300;
        proxy.node("a", a.address()).start();

        try (RawHttpClient client = proxy.client()) {
            assertEquals(200, client.get("/").status(), "a request longer than the idle timeout completes");
            assertTrue(client.closedWithin(3_000), "then the idle connection is closed");
        }
        proxy.assertSettled();
        proxy.assertConnectionsClosed();
    }

    @Test
    void nodeDyingMidResponseCutsTheClientConnection() throws Exception {
        try (ScriptedBackend dying = new ScriptedBackend("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nonly ten b", false)) {
            dying.closeAfterResponse = true;
            proxy = new ProxyFixture().node("dying", dying.address()).start();
            try (RawHttpClient client = proxy.client()) {
                client.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
                RawHttpClient.Response head = client.readHead();
                assertEquals(200, head.status(), "the head was already relayed");
                assertEquals(10, client.input().readNBytes(1000).length, "then the body stops short");
                assertTrue(client.closedWithin(2_000));
            }
            proxy.assertSettled();
            assertEquals(1, proxy.cluster.counters().failedRequests());
            assertEquals(1, proxy.node("dying").counters().failedRequests());
        }
    }

    @Test
    void nodeKilledMidRunFailsOnlyRequestsAlreadySentToIt() throws Exception {
        TestBackend survivor = backend("survivor");
        TestBackend victim = backend("victim");
        victim.hang = true; // holds every request it gets, as a node dying under load would
        proxy = new ProxyFixture().node("survivor", survivor.address()).node("victim", victim.address()).start();

        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> first = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                first.add(pool.submit(() -> {
                    try (RawHttpClient client = proxy.client()) {
                        return client.get("/").status();
                    }
                }));
            }
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (survivor.requests() + victim.requests() < 8 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            int stranded = victim.requests();
            assertEquals(4, stranded, "round-robin sent half to the victim");
            victim.kill();

            int badGateway = 0;
            for (Future<Integer> f : first) {
                int status = f.get();
                assertTrue(status == 200 || status == 502, "status " + status);
                badGateway += status == 502 ? 1 : 0;
            }
            // Each GET the victim held either went to the survivor (a retry, within the budget: at least
            // RetryBudget.MIN_CONCURRENT at once) or got 502; none is lost, none answered twice.
            long retried = proxy.cluster.counters().totalRetries();
            assertEquals(stranded, badGateway + retried, "the requests the victim held: " + retried + " retried, "
                    + badGateway + " got 502");
            assertTrue(retried >= Math.min(stranded, io.loadwise.dispatcher.cluster.RetryBudget.MIN_CONCURRENT),
                    "the retry budget's floor: " + retried + " retried");

            try (RawHttpClient client = proxy.client()) {
                for (int i = 0; i < 20; i++) {
                    RawHttpClient.Response response = client.get("/");
                    assertEquals(200, response.status(), "request " + i + " after the kill");
                    assertEquals("survivor", response.header("x-node"));
                }
            }
            assertTrue(proxy.node("victim").connectDown());
        } finally {
            pool.shutdownNow();
        }
        proxy.assertSettled();
        assertEquals(4 - proxy.cluster.counters().totalRetries(), proxy.cluster.counters().failedRequests(),
                "the held requests that were not retried");
    }
}
