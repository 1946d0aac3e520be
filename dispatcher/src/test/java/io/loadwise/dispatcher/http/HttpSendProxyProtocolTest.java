package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code sendProxyProtocol} on an http cluster: two clients, from 127.0.0.2 and 127.0.0.3, through one cluster with
 * one node that records what each of its connections carried. Each node connection must start with exactly one
 * PROXY header naming its client and carry only that client's requests, reused between them (keep-alive within a
 * client), and close with its client, after the idle time, or to make room in a full pool.
 */
class HttpSendProxyProtocolTest {

    private HeaderRecordingNode node;
    private ProxyFixture proxy;

    @AfterEach
    void tearDown() throws Exception {
        if (proxy != null) {
            proxy.close();
        }
        if (node != null) {
            node.close();
        }
    }

    private void start(String send, Integer maxConnectionsPerNode) throws Exception {
        node = new HeaderRecordingNode();
        proxy = new ProxyFixture();
        proxy.sendProxyProtocol = send;
        proxy.maxConnectionsPerNode = maxConnectionsPerNode;
        proxy.node("n", node.address()).start();
    }

    private String headerOf(RawHttpClient client, String from) {
        return "PROXY TCP4 " + from + " 127.0.0.1 " + client.localPort() + " " + proxy.address.getPort();
    }

    /** The node connection whose header names {@code client}; fails unless exactly one does. */
    private HeaderRecordingNode.Conn connOf(RawHttpClient client, String from) {
        List<HeaderRecordingNode.Conn> of = node.connections.stream()
                .filter(c -> headerOf(client, from).equals(c.header)).toList();
        assertEquals(1, of.size(), () -> "node connections of " + from + ": " + node.connections);
        return of.get(0);
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long until = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < until, what);
            Thread.sleep(10);
        }
    }

    private static void get(RawHttpClient client, String path) throws Exception {
        assertEquals(200, client.get(path).status(), path);
    }

    @ParameterizedTest
    @ValueSource(strings = {"v1", "v2"})
    void eachClientGetsNodeConnectionsOfItsOwnWithOneHeaderFirst(String version) throws Exception {
        start(version, null);
        try (RawHttpClient a = new RawHttpClient(proxy.address, "127.0.0.2");
                RawHttpClient b = new RawHttpClient(proxy.address, "127.0.0.3")) {
            for (int i = 1; i <= 3; i++) { // interleaved: a shared pool would hand a's idle connection to b
                get(a, "/a" + i);
                get(b, "/b" + i);
            }
            assertEquals(2, node.connections.size(), () -> "one node connection per client: " + node.connections);
            assertEquals(List.of("GET /a1 HTTP/1.1", "GET /a2 HTTP/1.1", "GET /a3 HTTP/1.1"),
                    connOf(a, "127.0.0.2").requests);
            assertEquals(List.of("GET /b1 HTTP/1.1", "GET /b2 HTTP/1.1", "GET /b3 HTTP/1.1"),
                    connOf(b, "127.0.0.3").requests);
            HeaderRecordingNode.Conn ofA = connOf(a, "127.0.0.2");
            a.close();
            await(() -> ofA.closed, "a's node connection closes with a");
            get(b, "/b4"); // b's stays
            assertEquals(4, connOf(b, "127.0.0.3").requests.size());
            assertFalse(connOf(b, "127.0.0.3").closed);
        }
        proxy.assertSettled();
    }

    /** h2load over h2c by prior knowledge: {@code requests} on one connection, {@code streams} at a time. */
    private static void h2load(String url, int requests, int streams) throws Exception {
        Process h2load = new ProcessBuilder("h2load", "-n", String.valueOf(requests), "-c", "1", "-m",
                String.valueOf(streams), url).redirectErrorStream(true).start();
        String out = new String(h2load.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(h2load.waitFor(20, java.util.concurrent.TimeUnit.SECONDS), out);
        assertTrue(out.contains("requests: " + requests + " total, " + requests + " started, " + requests + " done, "
                + requests + " succeeded"), out);
    }

    @Test
    void theStreamsOfAnHttp2ClientShareItsPrivateConnections() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isExecutable(java.nio.file.Path.of(
                "/usr/bin/h2load")), "h2load not installed");
        start("v2", null);
        String url = "http://127.0.0.1:" + proxy.address.getPort() + "/";
        h2load(url, 6, 1); // one stream after another: each takes the node connection the one before parked
        assertEquals(1, node.connections.size(), () -> node.connections.toString());
        HeaderRecordingNode.Conn sequential = node.connections.get(0);
        assertEquals(6, sequential.requests.size(), sequential::toString);
        await(() -> sequential.closed, "closed with its client connection");

        h2load(url, 40, 8); // concurrent streams: several node connections, all of the one client connection
        List<HeaderRecordingNode.Conn> second = node.connections.subList(1, node.connections.size());
        assertEquals(40, second.stream().mapToInt(c -> c.requests.size()).sum(), second::toString);
        assertTrue(second.size() <= 8, () -> "at most one per stream in flight: " + second);
        for (HeaderRecordingNode.Conn c : second) {
            assertEquals(second.get(0).header, c.header, "every node connection names the one client connection");
            assertFalse(c.header.equals(sequential.header), "a new client connection, another port");
        }
        proxy.assertSettled();
    }

    @Test
    void aFullPoolClosesAnotherClientsParkedConnectionToServeAWaitingOne() throws Exception {
        start("v1", 1);
        try (RawHttpClient a = new RawHttpClient(proxy.address, "127.0.0.2");
                RawHttpClient b = new RawHttpClient(proxy.address, "127.0.0.3")) {
            get(a, "/a1");
            get(b, "/b1"); // the pool's one slot is a's, parked: it closes to make room
            HeaderRecordingNode.Conn first = node.connections.get(0);
            await(() -> first.closed, "a's parked connection closed");
            get(a, "/a2"); // and b's in turn
            assertEquals(3, node.connections.size(), () -> node.connections.toString());
            for (HeaderRecordingNode.Conn c : node.connections) {
                assertEquals(1, c.requests.size(), c::toString);
            }
            assertEquals(List.of("GET /a2 HTTP/1.1"), node.connections.get(2).requests);
            assertEquals(headerOf(a, "127.0.0.2"), node.connections.get(2).header);
        }
        proxy.assertSettled();
    }

    @Test
    void aParkedConnectionClosesAfterThePoolsIdleTime() throws Exception {
        start("v2", null);
        try (RawHttpClient a = new RawHttpClient(proxy.address, "127.0.0.2")) {
            get(a, "/a1");
            HeaderRecordingNode.Conn conn = connOf(a, "127.0.0.2");
            long parked = System.nanoTime();
            await(() -> conn.closed, "closed after the idle time while its client stays");
            long idleMs = (System.nanoTime() - parked) / 1_000_000;
            assertTrue(idleMs >= BackendPools.MAX_IDLE_NANOS / 1_000_000 - 100, "closed after " + idleMs + " ms");
            get(a, "/a2"); // a new one, with its header
            assertEquals(2, node.connections.size());
            assertEquals(headerOf(a, "127.0.0.2"), node.connections.get(1).header);
        }
        proxy.assertSettled();
    }
}
