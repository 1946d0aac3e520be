package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.handler.codec.http.HttpHeaders;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Header rewriting in both directions and the load-report hook. */
class HttpProxyHeadersTest {

    private TestBackend backend;
    private ProxyFixture proxy;

    @BeforeEach
    void setUp() throws Exception {
        backend = new TestBackend("a");
        proxy = new ProxyFixture().node("a", backend.address()).start();
    }

    @AfterEach
    void tearDown() {
        proxy.close();
        backend.close();
    }

    @Test
    void forwardedHeadersAreAddedAndAnUntrustedForwardedForIsReplaced() throws Exception {
        try (RawHttpClient client = proxy.client()) {
            client.write("GET / HTTP/1.1\r\nHost: shop.example:8080\r\nX-Forwarded-Proto: https\r\n\r\n");
            assertEquals(200, client.read(false).status());
            client.write("GET / HTTP/1.1\r\nHost: shop.example\r\nX-Forwarded-For: 203.0.113.7\r\n\r\n");
            assertEquals(200, client.read(false).status());
        }
        HttpHeaders first = backend.received.poll();
        assertEquals("127.0.0.1", first.get("x-forwarded-for"));
        assertEquals("http", first.get("x-forwarded-proto"), "the edge states the scheme it received");
        assertEquals("shop.example:8080", first.get("x-forwarded-host"));
        HttpHeaders second = backend.received.poll();
        assertEquals("127.0.0.1", second.get("x-forwarded-for"), "an untrusted client's claim is replaced");
        proxy.assertSettled();
    }

    @Test
    void aTrustedProxysForwardingHeadersAreAppendedTo() throws Exception {
        proxy.close();
        proxy = new ProxyFixture();
        proxy.trustedProxies = List.of("10.0.0.0/8", "127.0.0.0/8");
        proxy.node("a", backend.address()).start();
        try (RawHttpClient client = proxy.client()) {
            client.write("GET / HTTP/1.1\r\nHost: shop.example:8080\r\nX-Forwarded-For: 203.0.113.7\r\n"
                    + "Forwarded: for=203.0.113.7;proto=https\r\n\r\n");
            assertEquals(200, client.read(false).status());
        }
        HttpHeaders seen = backend.received.poll();
        assertEquals("203.0.113.7, 127.0.0.1", seen.get("x-forwarded-for"));
        assertEquals("for=203.0.113.7;proto=https, for=127.0.0.1;proto=http;host=\"shop.example:8080\"",
                seen.get("forwarded"));
        proxy.assertSettled();
    }

    @Test
    void anUntrustedClientsForwardedHeaderIsReplacedByThisHopsElement() throws Exception {
        try (RawHttpClient client = proxy.client()) {
            client.write("GET / HTTP/1.1\r\nHost: shop\r\nForwarded: for=203.0.113.7\r\nForwarded: for=10.1.1.1\r\n\r\n");
            assertEquals(200, client.read(false).status());
        }
        HttpHeaders seen = backend.received.poll();
        assertEquals(List.of("for=127.0.0.1;proto=http;host=shop"), seen.getAll("forwarded"));
        proxy.assertSettled();
    }

    @Test
    void hopByHopHeadersAreDroppedOnTheWayToTheNode() throws Exception {
        try (RawHttpClient client = proxy.client()) {
            client.write("GET / HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, X-Session-Hint\r\n"
                    + "X-Session-Hint: secret\r\nKeep-Alive: timeout=5\r\nProxy-Authorization: Basic Zm9vOmJhcg==\r\n"
                    + "Proxy-Connection: keep-alive\r\nTE: trailers\r\nTrailer: X-Checksum\r\nUpgrade: h2c\r\n"
                    + "X-End-To-End: kept\r\n\r\n");
            RawHttpClient.Response response = client.read(false);
            assertEquals(200, response.status());
            assertNull(response.header("connection"), "keep-alive is HTTP/1.1's default");
        }
        HttpHeaders received = backend.received.poll();
        for (String dropped : List.of("connection", "x-session-hint", "keep-alive", "proxy-authorization",
                "proxy-connection", "te", "trailer", "upgrade")) {
            assertFalse(received.contains(dropped), dropped + " reached the node: " + received);
        }
        assertEquals("kept", received.get("x-end-to-end"));
        proxy.assertSettled();
    }

    @Test
    void hopByHopHeadersAreDroppedOnTheWayToTheClient() throws Exception {
        Map<String, String> extra = new LinkedHashMap<>();
        extra.put("Connection", "X-Internal-Route");
        extra.put("X-Internal-Route", "rack-7");
        extra.put("Keep-Alive", "timeout=5, max=100");
        extra.put("Proxy-Authenticate", "Basic realm=\"node\"");
        extra.put("X-End-To-End", "kept");
        backend.responseHeaders = extra;
        try (RawHttpClient client = proxy.client()) {
            RawHttpClient.Response response = client.get("/");
            for (String dropped : List.of("connection", "x-internal-route", "keep-alive", "proxy-authenticate")) {
                assertNull(response.header(dropped), dropped + " reached the client");
            }
            assertEquals("kept", response.header("x-end-to-end"));
            assertEquals(200, client.get("/").status(), "the client connection stayed open");
        }
        proxy.assertSettled();
    }

    @Test
    void loadReportsAreTakenFromResponsesAndStrippedFromRequests() throws Exception {
        List<String> reports = new CopyOnWriteArrayList<>();
        proxy.server.setLoadReportSink((node, value) -> reports.add(node.name() + "=" + value));
        backend.responseHeaders = Map.of("Endpoint-Load-Metrics", "JSON {\"cpu_utilization\": 0.42}");
        try (RawHttpClient client = proxy.client()) {
            RawHttpClient.Response response = client.get("/", "endpoint-load-metrics: TEXT cpu_utilization=0.99");
            assertEquals(200, response.status());
            assertNull(response.header("endpoint-load-metrics"), "the client never sees a node's load report");
        }
        assertFalse(backend.received.poll().contains("endpoint-load-metrics"), "a client cannot forge a report");
        assertEquals(List.of("a=JSON {\"cpu_utilization\": 0.42}"), reports);
        proxy.assertSettled();
    }

    @Test
    void headRequestGetsTheHeadersOnlyAndTheConnectionStaysInSync() throws Exception {
        try (RawHttpClient client = proxy.client()) {
            client.write("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n");
            RawHttpClient.Response head = client.read(true);
            assertEquals(200, head.status());
            assertEquals("1", head.header("content-length"));
            RawHttpClient.Response next = client.get("/");
            assertEquals("a", next.text(), "no body byte was left behind the HEAD response");
        }
        proxy.assertSettled();
    }

    @Test
    void http10ClientGetsAKeepAliveAnswerOnlyWhenItAskedForOne() throws Exception {
        try (RawHttpClient client = proxy.client()) {
            client.write("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
            RawHttpClient.Response kept = client.read(false);
            assertEquals("keep-alive", kept.header("connection"));
            client.write("GET / HTTP/1.0\r\n\r\n");
            RawHttpClient.Response closed = client.read(false);
            assertEquals("close", closed.header("connection"));
            assertEquals("a", closed.text());
        }
        assertEquals(1, backend.accepts(), "the node connection is kept alive whatever the client speaks");
        proxy.assertSettled();
    }
}
