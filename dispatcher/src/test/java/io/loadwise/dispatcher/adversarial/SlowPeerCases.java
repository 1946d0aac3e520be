package io.loadwise.dispatcher.adversarial;

import static io.loadwise.dispatcher.adversarial.Trickle.millisSince;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Slow clients (spec items 17-20): trickled heads and bodies, a client that never reads. Each case sets
 * small timeouts and checks both that the proxy gives up and roughly when, from the client's side and
 * the node's.
 */
final class SlowPeerCases {

    static final String GROUP = "slow-peers";

    private SlowPeerCases() {
    }

    static List<JavaCase> all() {
        return List.of(
                new JavaCase(GROUP, "slowloris-head-gets-408", "17", SlowPeerCases::slowlorisHead),
                new JavaCase(GROUP, "slowloris-second-head-on-keep-alive-gets-408", "17",
                        SlowPeerCases::slowlorisSecondHead),
                new JavaCase(GROUP, "silent-connection-closed-after-idle-timeout", "17",
                        SlowPeerCases::silentConnection),
                new JavaCase(GROUP, "slow-but-timely-head-is-served", "17", SlowPeerCases::slowButTimelyHead),
                new JavaCase(GROUP, "stalled-length-body-gets-408", "18", c -> stalledBody(c, false)),
                new JavaCase(GROUP, "stalled-chunked-body-gets-408", "18", c -> stalledBody(c, true)),
                new JavaCase(GROUP, "moving-body-under-idle-timeout-is-served", "18", SlowPeerCases::movingBody),
                new JavaCase(GROUP, "trickled-body-over-exchange-timeout-gets-408", "19",
                        SlowPeerCases::trickleOverExchange),
                new JavaCase(GROUP, "dripping-response-over-exchange-timeout-is-cut", "19",
                        SlowPeerCases::drippingResponseOverExchange),
                new JavaCase(GROUP, "client-that-never-reads-is-dropped-with-its-node-connection", "20",
                        SlowPeerCases::clientNeverReads));
    }

    static byte[] latin1(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    static void assertWithin(long elapsedMs, long minMs, long maxMs, String what) {
        assertTrue(elapsedMs >= minMs && elapsedMs <= maxMs,
                what + " after " + elapsedMs + " ms, expected between " + minMs + " and " + maxMs + " ms");
    }

    /** Reads one response and checks its status, failing clearly on a timeout or a close. */
    static ClientResponse read(RawClient client, int status, String what) throws Exception {
        ClientResponse response;
        try {
            response = client.read(false);
        } catch (EOFException e) {
            throw new AssertionError(what + ": the proxy closed the connection without a response", e);
        } catch (java.net.SocketTimeoutException e) {
            throw new AssertionError(what + ": no response in time", e);
        }
        assertEquals(status, response.status(), what + ": " + response);
        return response;
    }

    /** Reads a response whose body must be cut off by the proxy closing the connection. */
    static ClientResponse readCut(RawClient client, int status, String what) throws Exception {
        ClientResponse response;
        try {
            response = client.read(false);
        } catch (EOFException e) {
            throw new AssertionError(what + ": the proxy closed the connection before the response head", e);
        } catch (java.net.SocketTimeoutException e) {
            throw new AssertionError(what + ": the proxy neither finished nor cut the response", e);
        }
        assertEquals(status, response.status(), what + ": " + response);
        assertFalse(response.complete(), what + ": the response reached the client whole: " + response);
        return response;
    }

    static void assertClosed(RawClient client, String what) throws Exception {
        ByteArrayOutputStream extra = new ByteArrayOutputStream();
        assertTrue(client.closed(extra), what + ": the proxy kept the client connection open");
        assertEquals("", Escapes.show(extra.toByteArray()), what + ": bytes after the response");
    }

    /** 17: 1 byte every 100 ms; the head is never complete within headerTimeoutMs 500. */
    private static void slowlorisHead(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        ProxyUnderTest proxy = ctx.proxy(new ClusterOverrides().set("headerTimeoutMs", 500)
                .set("idleTimeoutMs", 5_000), node);
        RawClient client = ctx.client(proxy, 4_000);
        Trickle trickle = ctx.register(new Trickle("slowloris", client.output(),
                latin1("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " + "a".repeat(80) + "\r\n\r\n"), 1, 100));
        long start = trickle.firstWriteNanos();
        read(client, 408, "slowloris head");
        assertWithin(millisSince(start), 400, 2_500, "408");
        assertClosed(client, "after the 408");
        assertEquals(0, node.requests().size(), "a partial head reached the node");
        AccessLogTap.expect(GROUP + "/slowloris-head", List.of(client), "TH 408 -");
    }

    /** 17: the header timeout also runs for the next head on a keep-alive connection. */
    private static void slowlorisSecondHead(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        ProxyUnderTest proxy = ctx.proxy(new ClusterOverrides().set("headerTimeoutMs", 500)
                .set("idleTimeoutMs", 5_000), node);
        RawClient client = ctx.client(proxy, 4_000);
        client.write(latin1("GET /first HTTP/1.1\r\nHost: x\r\n\r\n"));
        read(client, 200, "first request");
        Trickle trickle = ctx.register(new Trickle("slowloris-2", client.output(),
                latin1("GET /second HTTP/1.1\r\nHost: x\r\nX-Slow: " + "a".repeat(80) + "\r\n\r\n"), 1, 100));
        long start = trickle.firstWriteNanos();
        read(client, 408, "slow second head");
        assertWithin(millisSince(start), 400, 2_500, "408");
        assertClosed(client, "after the 408");
        assertEquals(1, node.requests().size(), "only the first request reaches the node");
    }

    /** 17: a connection that sends nothing is closed after idleTimeoutMs (a 408 first is allowed). */
    private static void silentConnection(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        ProxyUnderTest proxy = ctx.proxy(new ClusterOverrides().set("idleTimeoutMs", 800)
                .set("headerTimeoutMs", 5_000), node);
        long start = System.nanoTime();
        RawClient client = ctx.client(proxy, 4_000);
        ByteArrayOutputStream sent = new ByteArrayOutputStream();
        assertTrue(client.closed(sent), "a silent connection was kept open for 4 s with idleTimeoutMs 800");
        assertWithin(millisSince(start), 600, 3_000, "closed");
        String text = sent.toString(StandardCharsets.ISO_8859_1);
        assertTrue(text.isEmpty() || text.startsWith("HTTP/1.1 408 "), "sent before closing: " + Escapes.show(text));
    }

    /** 17, not over-strict: a head trickled in well within headerTimeoutMs is served. */
    private static void slowButTimelyHead(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        ProxyUnderTest proxy = ctx.proxy(new ClusterOverrides().set("headerTimeoutMs", 3_000), node);
        RawClient client = ctx.client(proxy, 4_000);
        ctx.register(new Trickle("timely", client.output(), latin1("GET /timely HTTP/1.1\r\nHost: x\r\n\r\n"), 1, 20));
        ClientResponse response = read(client, 200, "timely head");
        assertEquals("GET /timely HTTP/1.1", new String(response.body(), StandardCharsets.ISO_8859_1));
    }

    /** 18: the body stops after 10 bytes: 408 (no response started), client and node connections closed. */
    private static void stalledBody(CaseContext ctx, boolean chunked) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        ProxyUnderTest proxy = ctx.proxy(new ClusterOverrides().set("requestIdleTimeoutMs", 500), node);
        RawClient client = ctx.client(proxy, 4_000);
        String head = chunked ? "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\na\r\n0123456789\r\n"
                : "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n0123456789";
        client.write(latin1(head));
        long start = System.nanoTime();
        read(client, 408, "stalled body");
        assertWithin(millisSince(start), 400, 3_000, "408");
        assertClosed(client, "after the 408");
        assertTrue(NodeChecks.poll(3_000, () -> !node.connections().isEmpty()
                && node.connections().stream().allMatch(NodeConnection::closedByProxy)),
                "the node connection carrying the stalled body was not closed: " + NodeChecks.describe(node));
        assertEquals(1, node.requests().size(), NodeChecks.describe(node));
        assertFalse(node.requests().get(0).complete(), "the node got a complete request from a stalled body");
        AccessLogTap.expect(GROUP + "/stalled-body", List.of(client), "TD 408 raw1");
    }

    /** 18, not over-strict: a body moving a byte per 100 ms never idles for 500 ms and is served. */
    private static void movingBody(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        ProxyUnderTest proxy = ctx.proxy(new ClusterOverrides().set("requestIdleTimeoutMs", 500), node);
        RawClient client = ctx.client(proxy, 5_000);
        client.write(latin1("POST /moving HTTP/1.1\r\nHost: x\r\nContent-Length: 15\r\n\r\n"));
        ctx.register(new Trickle("moving", client.output(), latin1("abcdefghijklmno"), 1, 100));
        read(client, 200, "moving body");
        assertEquals("abcdefghijklmno", new String(node.requests().get(0).body(), StandardCharsets.ISO_8859_1));
    }

    /** 19: every byte in time for the idle timeouts, but the exchange takes longer than exchangeTimeoutMs. */
    private static void trickleOverExchange(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        ProxyUnderTest proxy = ctx.proxy(new ClusterOverrides().set("exchangeTimeoutMs", 1_000), node);
        RawClient client = ctx.client(proxy, 5_000);
        client.write(latin1("POST /trickle HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n"));
        long start = System.nanoTime();
        ctx.register(new Trickle("exchange", client.output(), latin1("x".repeat(100)), 1, 100));
        read(client, 408, "exchange over exchangeTimeoutMs");
        assertWithin(millisSince(start), 800, 3_000, "408");
        assertClosed(client, "after the 408");
    }

    /** 19: the response started and drips; past exchangeTimeoutMs the client connection is cut. */
    private static void drippingResponseOverExchange(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeTimingCases.dripping(100, 100));
        ProxyUnderTest proxy = ctx.proxy(new ClusterOverrides().set("exchangeTimeoutMs", 1_000), node);
        RawClient client = ctx.client(proxy, 5_000);
        client.write(latin1("GET /drip HTTP/1.1\r\nHost: x\r\n\r\n"));
        long start = System.nanoTime();
        readCut(client, 200, "a 10 s response with exchangeTimeoutMs 1000");
        assertWithin(millisSince(start), 800, 3_500, "cut");
        assertTrue(NodeChecks.poll(3_000, () -> node.connections().get(0).closedByProxy()),
                "the dripping node connection was not closed: " + NodeChecks.describe(node));
        AccessLogTap.expect(GROUP + "/dripping-response-over-exchange", List.of(client), "TD 504 raw1");
    }

    /** 20: the node sends 8 MB, the client reads nothing: both connections closed within a few seconds. */
    private static void clientNeverReads(CaseContext ctx) throws Exception {
        int size = 8 * 1024 * 1024;
        RawNode node = ctx.node(NodeTimingCases.flood(size));
        ProxyUnderTest proxy = ctx.proxy(new ClusterOverrides().set("responseIdleTimeoutMs", 500), node);
        RawClient client = ctx.register(new RawClient(proxy.address(), 5_000, 32 * 1024));
        client.write(latin1("GET /flood HTTP/1.1\r\nHost: x\r\n\r\n"));
        NodeChecks.awaitRequests(node, 1, GROUP + "/client-that-never-reads");
        if (!NodeChecks.poll(8_000, () -> node.connections().get(0).closedByProxy())) {
            fail("the node connection feeding a client that never reads was kept open for 8 s: "
                    + NodeChecks.describe(node));
        }
        long got = 0;
        try {
            ClientResponse response = client.read(false);
            got = response.body().length;
            assertFalse(response.complete(), "the client that never read got all " + size + " bytes");
        } catch (EOFException e) {
            // closed before even the head reached the client: also cut off
        } catch (java.net.SocketTimeoutException e) {
            fail("the proxy closed the node connection but kept the client's open, silent");
        }
        assertTrue(got < size, "client got " + got + " bytes");
    }
}
