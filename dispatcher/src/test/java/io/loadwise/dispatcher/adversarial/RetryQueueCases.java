package io.loadwise.dispatcher.adversarial;

import static io.loadwise.dispatcher.adversarial.SlowPeerCases.assertWithin;
import static io.loadwise.dispatcher.adversarial.SlowPeerCases.latin1;
import static io.loadwise.dispatcher.adversarial.SlowPeerCases.read;
import static io.loadwise.dispatcher.adversarial.Trickle.millisSince;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Retries and the request queue (issue 15, items 4 and 5) against real sockets: two raw nodes for
 * retries (the request must reach the second node byte for byte, or never), one held node for the queue
 * (a request must not reach the node while it is full, and must reach it once it frees up).
 */
final class RetryQueueCases {

    static final String RETRY = "retry";
    static final String QUEUE = "queue";

    private RetryQueueCases() {
    }

    static List<JavaCase> all() {
        return List.of(
                new JavaCase(RETRY, "get-reset-before-any-response-byte-goes-to-the-other-node", "R5",
                        RetryQueueCases::getResetIsRetried),
                new JavaCase(RETRY, "post-whose-body-was-sent-is-not-retried", "R5", RetryQueueCases::postNotRetried),
                new JavaCase(RETRY, "get-cut-after-response-bytes-is-not-retried", "R5",
                        RetryQueueCases::cutResponseNotRetried),
                new JavaCase(RETRY, "post-whose-body-was-not-sent-goes-to-the-other-node-with-its-body", "R5",
                        RetryQueueCases::postBodyFollowsTheRetry),
                new JavaCase(RETRY, "retried-once-only", "R5", RetryQueueCases::retriedOnce),
                new JavaCase(RETRY, "no-retry-without-budget", "R5", RetryQueueCases::noBudget),
                new JavaCase(QUEUE, "full-node-queues-and-serves-when-it-frees", "Q4", RetryQueueCases::queuedThenServed),
                new JavaCase(QUEUE, "queue-timeout-is-503-with-retry-after", "Q4", RetryQueueCases::queueTimeout),
                new JavaCase(QUEUE, "beyond-max-queue-is-503-at-once", "Q4", RetryQueueCases::queueOverflow),
                new JavaCase(QUEUE, "full-without-a-queue-is-503-at-once", "Q4", RetryQueueCases::fullWithoutQueue));
    }

    /** A script for both nodes: the first request either of them gets is met with {@code first}; the rest echo. */
    private static NodeScript firstThen(AtomicInteger seen, NodeScript first) {
        return (request, out) -> seen.getAndIncrement() == 0 ? first.answer(request, out)
                : NodeScript.ECHO_LINE.answer(request, out);
    }

    private static final NodeScript RESET = (request, out) -> NodeScript.After.CLOSE;

    private static List<NodeRequest> both(RawNode a, RawNode b) {
        List<NodeRequest> all = new ArrayList<>(a.requests());
        all.addAll(b.requests());
        return all;
    }

    private static void getResetIsRetried(CaseContext ctx) throws Exception {
        AtomicInteger seen = new AtomicInteger();
        RawNode a = ctx.node(firstThen(seen, RESET));
        RawNode b = ctx.node(firstThen(seen, RESET));
        ProxyUnderTest proxy = ctx.proxy(new ClusterOverrides(), a, b);
        RawClient client = ctx.client(proxy);
        client.write(latin1("GET /retry-me HTTP/1.1\r\nHost: x\r\n\r\n"));
        ClientResponse response = read(client, 200, "a GET whose node reset");
        assertEquals("GET /retry-me HTTP/1.1", new String(response.body(), StandardCharsets.ISO_8859_1));
        assertEquals(1, a.requests().size(), NodeChecks.describe(a));
        assertEquals(1, b.requests().size(), "once on each node: " + NodeChecks.describe(b));
        assertArrayEquals(a.requests().get(0).raw(), b.requests().get(0).raw(), "the same bytes to both nodes");
        assertEquals(1, proxy.cluster().counters().totalRetries());
        AccessLogTap.expect(RETRY + "/get-reset", List.of(client), "-- 200 raw2");
        assertEquals(1, AccessLogTap.lines(List.of(client.localPort())).get(0).get("retries").asInt(), "retries");
    }

    private static void postNotRetried(CaseContext ctx) throws Exception {
        AtomicInteger seen = new AtomicInteger();
        RawNode a = ctx.node(firstThen(seen, RESET));
        RawNode b = ctx.node(firstThen(seen, RESET));
        ProxyUnderTest proxy = ctx.proxy(new ClusterOverrides(), a, b);
        RawClient client = ctx.client(proxy);
        client.write(latin1("POST /order HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"));
        read(client, 502, "a POST whose node reset after its body");
        List<NodeRequest> all = both(a, b);
        assertEquals(1, all.size(), "the order went to one node only: " + all);
        assertEquals("hello", new String(all.get(0).body(), StandardCharsets.ISO_8859_1));
        assertTrue(all.get(0).complete());
        assertEquals(0, proxy.cluster().counters().totalRetries());
    }

    private static void cutResponseNotRetried(CaseContext ctx) throws Exception {
        AtomicInteger seen = new AtomicInteger();
        NodeScript partial = (request, out) -> {
            out.write(latin1("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"));
            out.flush();
            return NodeScript.After.CLOSE;
        };
        RawNode a = ctx.node(firstThen(seen, partial));
        RawNode b = ctx.node(firstThen(seen, partial));
        ProxyUnderTest proxy = ctx.proxy(new ClusterOverrides(), a, b);
        RawClient client = ctx.client(proxy);
        client.write(latin1("GET /cut HTTP/1.1\r\nHost: x\r\n\r\n"));
        SlowPeerCases.readCut(client, 200, "a response cut after its first bytes");
        assertEquals(1, both(a, b).size(), "never sent again once response bytes reached the client");
        assertEquals(0, proxy.cluster().counters().totalRetries());
    }

    private static void postBodyFollowsTheRetry(CaseContext ctx) throws Exception {
        AtomicInteger heads = new AtomicInteger();
        NodeScript closeOnFirstHead = new NodeScript() {
            @Override
            public void onHead(NodeRequest head, java.io.OutputStream out) throws IOException {
                if (heads.getAndIncrement() == 0) {
                    throw new IOException("the node goes away after the head"); // RawNode closes the socket
                }
            }

            @Override
            public After answer(NodeRequest request, java.io.OutputStream out) throws IOException {
                return NodeScript.ECHO_LINE.answer(request, out);
            }
        };
        RawNode a = ctx.node(closeOnFirstHead);
        RawNode b = ctx.node(closeOnFirstHead);
        ProxyUnderTest proxy = ctx.proxy(new ClusterOverrides(), a, b);
        RawClient client = ctx.client(proxy);
        client.write(latin1("POST /order HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n"));
        assertTrue(NodeChecks.poll(3_000, () -> a.requests().size() + b.requests().size() >= 2),
                "the head went to the second node: " + NodeChecks.describe(a) + NodeChecks.describe(b));
        client.write(latin1("hello"));
        ClientResponse response = read(client, 200, "a POST retried before its body");
        assertEquals("POST /order HTTP/1.1", new String(response.body(), StandardCharsets.ISO_8859_1));
        List<NodeRequest> all = both(a, b);
        NodeRequest first = all.get(0).complete() ? all.get(1) : all.get(0);
        NodeRequest second = all.get(0).complete() ? all.get(0) : all.get(1);
        assertEquals(0, first.body().length, "no body byte reached the first node");
        assertEquals("hello", new String(second.body(), StandardCharsets.ISO_8859_1), "the body went to the second");
        assertTrue(second.complete());
    }

    private static void retriedOnce(CaseContext ctx) throws Exception {
        RawNode a = ctx.node(RESET);
        RawNode b = ctx.node(RESET);
        ProxyUnderTest proxy = ctx.proxy(new ClusterOverrides(), a, b);
        RawClient client = ctx.client(proxy);
        client.write(latin1("GET /doomed HTTP/1.1\r\nHost: x\r\n\r\n"));
        read(client, 502, "both nodes reset");
        assertEquals(1, a.requests().size(), NodeChecks.describe(a));
        assertEquals(1, b.requests().size(), NodeChecks.describe(b));
        assertEquals(1, proxy.cluster().counters().totalRetries());
    }

    private static void noBudget(CaseContext ctx) throws Exception {
        AtomicInteger seen = new AtomicInteger();
        RawNode a = ctx.node(firstThen(seen, RESET));
        RawNode b = ctx.node(firstThen(seen, RESET));
        ProxyUnderTest proxy = ctx.proxy(new ClusterOverrides().set("retryBudgetPercent", 0), a, b);
        RawClient client = ctx.client(proxy);
        client.write(latin1("GET /once HTTP/1.1\r\nHost: x\r\n\r\n"));
        read(client, 502, "retryBudgetPercent 0");
        assertEquals(1, both(a, b).size(), "never sent again");
        assertEquals(0, proxy.cluster().counters().totalRetries());
    }

    /** A node that holds its first request until {@code release}, then echoes. */
    private static NodeScript holdingFirst(CountDownLatch release) {
        AtomicInteger seen = new AtomicInteger();
        return (request, out) -> {
            if (seen.getAndIncrement() == 0) {
                try {
                    if (!release.await(10, TimeUnit.SECONDS)) {
                        throw new IOException("never released");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException(e);
                }
            }
            return NodeScript.ECHO_LINE.answer(request, out);
        };
    }

    private static ClusterOverrides oneSlot() {
        return new ClusterOverrides().set("maxConnections", 1);
    }

    private static void queuedThenServed(CaseContext ctx) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        RawNode node = ctx.node(holdingFirst(release));
        ProxyUnderTest proxy = ctx.proxy(oneSlot().set("queueTimeoutMs", 5_000), node);
        RawClient first = ctx.client(proxy, 10_000);
        first.write(latin1("GET /1 HTTP/1.1\r\nHost: x\r\n\r\n"));
        NodeChecks.awaitRequests(node, 1, "queue");
        RawClient second = ctx.client(proxy, 10_000);
        second.write(latin1("GET /2 HTTP/1.1\r\nHost: x\r\n\r\n"));
        assertTrue(NodeChecks.poll(3_000, () -> proxy.cluster().queue().length() == 1), "the second waits");
        assertEquals(1, node.requests().size(), "nothing more reaches a full node");
        release.countDown();
        read(first, 200, "the first");
        ClientResponse answer = read(second, 200, "the queued one, once the node freed up");
        assertEquals("GET /2 HTTP/1.1", new String(answer.body(), StandardCharsets.ISO_8859_1));
        assertEquals(List.of("GET /1 HTTP/1.1", "GET /2 HTTP/1.1"),
                node.requests().stream().map(NodeRequest::requestLine).toList());
    }

    private static void queueTimeout(CaseContext ctx) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try {
            RawNode node = ctx.node(holdingFirst(release));
            ProxyUnderTest proxy = ctx.proxy(oneSlot().set("queueTimeoutMs", 300), node);
            RawClient first = ctx.client(proxy);
            first.write(latin1("GET /1 HTTP/1.1\r\nHost: x\r\n\r\n"));
            NodeChecks.awaitRequests(node, 1, "queue");
            RawClient second = ctx.client(proxy);
            long start = System.nanoTime();
            second.write(latin1("GET /2 HTTP/1.1\r\nHost: x\r\n\r\n"));
            ClientResponse answer = read(second, 503, "a request that waited past queueTimeoutMs");
            assertWithin(millisSince(start), 250, 2_500, "503");
            assertEquals(List.of("1"), answer.values("Retry-After"));
            assertEquals(1, node.requests().size(), "the timed-out request never reached the node");
            assertEquals(0, proxy.cluster().queue().length());
            AccessLogTap.expect(QUEUE + "/queue-timeout", List.of(second), "TQ 503 -");
        } finally {
            release.countDown();
        }
    }

    private static void queueOverflow(CaseContext ctx) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try {
            RawNode node = ctx.node(holdingFirst(release));
            ProxyUnderTest proxy = ctx.proxy(oneSlot().set("queueTimeoutMs", 5_000).set("maxQueue", 1), node);
            RawClient first = ctx.client(proxy);
            first.write(latin1("GET /1 HTTP/1.1\r\nHost: x\r\n\r\n"));
            NodeChecks.awaitRequests(node, 1, "queue");
            RawClient second = ctx.client(proxy);
            second.write(latin1("GET /2 HTTP/1.1\r\nHost: x\r\n\r\n"));
            assertTrue(NodeChecks.poll(3_000, () -> proxy.cluster().queue().length() == 1), "the second waits");
            RawClient third = ctx.client(proxy);
            long start = System.nanoTime();
            third.write(latin1("GET /3 HTTP/1.1\r\nHost: x\r\n\r\n"));
            ClientResponse answer = read(third, 503, "one more than maxQueue");
            assertTrue(millisSince(start) < 2_000, "at once, not after the queue timeout");
            assertEquals(List.of("1"), answer.values("Retry-After"));
            assertEquals(1, proxy.cluster().queue().length(), "the second still waits");
            assertFalse(node.requests().stream().anyMatch(r -> r.requestLine().startsWith("GET /3")));
            AccessLogTap.expect(QUEUE + "/beyond-max-queue", List.of(third), "PQ 503 -");
            second.close(); // it leaves the queue
            AccessLogTap.expect(QUEUE + "/beyond-max-queue", List.of(second), "CQ 499 -");
        } finally {
            release.countDown();
        }
    }

    private static void fullWithoutQueue(CaseContext ctx) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try {
            RawNode node = ctx.node(holdingFirst(release));
            ProxyUnderTest proxy = ctx.proxy(oneSlot(), node);
            RawClient first = ctx.client(proxy);
            first.write(latin1("GET /1 HTTP/1.1\r\nHost: x\r\n\r\n"));
            NodeChecks.awaitRequests(node, 1, "queue");
            RawClient second = ctx.client(proxy);
            second.write(latin1("GET /2 HTTP/1.1\r\nHost: x\r\n\r\n"));
            ClientResponse answer = read(second, 503, "a full node and no queue");
            assertEquals(List.of("1"), answer.values("Retry-After"));
            assertEquals(1, node.requests().size());
            AccessLogTap.expect(QUEUE + "/full-without-a-queue", List.of(second), "PQ 503 -");
            release.countDown();
            read(first, 200, "the first, unharmed");
        } finally {
            release.countDown();
        }
    }
}
