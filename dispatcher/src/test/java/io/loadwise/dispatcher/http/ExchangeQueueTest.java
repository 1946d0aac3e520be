package io.loadwise.dispatcher.http;

import static io.loadwise.dispatcher.http.EmbeddedProxy.advance;
import static io.loadwise.dispatcher.http.EmbeddedProxy.received;
import static io.loadwise.dispatcher.http.EmbeddedProxy.sends;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.http.Exchange.RequestPhase;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Per-node {@code maxConnections} and the cluster's request queue (issue 15, item 4) on embedded channels:
 * several client connections, each on its own loop, against two nodes that take one request each.
 */
class ExchangeQueueTest {

    private static final String OK = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

    private EmbeddedProxy proxy;

    @AfterEach
    void close() {
        if (proxy != null) {
            proxy.close();
        }
    }

    /** Nodes a and b with {@code maxConnections} 1, round robin, plus {@code settings}. */
    private EmbeddedProxy twoFullNodes(Consumer<ClusterConfig.Builder> settings) {
        proxy = new EmbeddedProxy(c -> {
            c.nodes(List.of(new NodeConfig("a", "127.0.0.1:1", null, null, null, null, null, 1),
                    new NodeConfig("b", "127.0.0.1:2", null, null, null, null, null, 1)));
            settings.accept(c);
        });
        proxy.clientSends("GET /1 HTTP/1.1\r\nHost: h\r\n\r\n");
        EmbeddedChannel second = proxy.newClient();
        sends(second, "GET /2 HTTP/1.1\r\nHost: h\r\n\r\n");
        assertEquals(2, proxy.nodeConnections.size(), "one request on each node");
        assertTrue(proxy.nodeReceived(0).startsWith("GET /1 "));
        assertTrue(proxy.nodeReceived(1).startsWith("GET /2 "));
        assertFalse(proxy.nodeState("a").admitted() || proxy.nodeState("b").admitted(), "both nodes full");
        return proxy;
    }

    private static Exchange exchangeOf(EmbeddedChannel client) {
        return ((FrontendHandler) client.pipeline().get(HttpProxyServer.FRONTEND)).exchangeForTests();
    }

    @Test
    void aRequestThatFindsEveryNodeFullWaitsAndIsSentWhenOneFrees() {
        twoFullNodes(c -> c.queueTimeoutMs(5_000));
        EmbeddedChannel third = proxy.newClient();
        sends(third, "GET /3 HTTP/1.1\r\nHost: h\r\n\r\n");
        assertEquals(RequestPhase.QUEUED, exchangeOf(third).requestPhase());
        assertEquals(1, proxy.cluster.queue().length());
        assertEquals(1, proxy.cluster.counters().queueLength(), "TD_QUEUE_LENGTH");
        assertEquals(2, proxy.nodeConnections.size(), "nothing sent while both are full");
        assertEquals("", received(third));

        advance(third, 1_000);
        proxy.nodeSends(0, OK); // the first request completes on node a: its slot frees
        assertTrue(proxy.clientReceived().startsWith("HTTP/1.1 200 OK"));
        assertEquals("", received(third).trim(), "the woken request runs on its own loop");
        assertEquals(3, proxy.nodeConnections.size());
        assertTrue(proxy.nodeReceived(2).startsWith("GET /3 "), "sent as soon as node a freed up");
        assertEquals(1, proxy.nodeState("a").admissions());
        assertEquals(0, proxy.cluster.queue().length());
        assertEquals(1, proxy.cluster.counters().read().queueWaits());
        assertEquals(1_000_000_000L, proxy.cluster.counters().read().queueNanos(), "TD_QUEUE_TIME: the second waited");

        proxy.nodeSends(2, OK);
        assertTrue(received(third).startsWith("HTTP/1.1 200 OK"));
        proxy.nodeSends(1, OK);
        assertEquals(0, proxy.nodeState("a").admissions() + proxy.nodeState("b").admissions(), "every slot back");
        proxy.assertSettled();
    }

    @Test
    void aQueuedRequestTimesOutWith503AndRetryAfter() {
        twoFullNodes(c -> c.queueTimeoutMs(2_000));
        EmbeddedChannel third = proxy.newClient();
        sends(third, "GET /3 HTTP/1.1\r\nHost: h\r\n\r\n");
        advance(third, 1_999);
        assertEquals(RequestPhase.QUEUED, exchangeOf(third).requestPhase(), "not before its time");
        advance(third, 2);
        String answer = received(third);
        assertTrue(answer.startsWith("HTTP/1.1 503 Service Unavailable\r\n"), answer);
        assertTrue(answer.contains("\r\nretry-after: 1\r\n"), answer);
        assertTrue(third.isOpen(), "a bodyless request that timed out in the queue keeps its connection");
        assertEquals(0, proxy.cluster.queue().length());
        assertEquals(2, proxy.nodeConnections.size(), "never sent");
        proxy.nodeSends(0, OK);
        assertEquals(2, proxy.nodeConnections.size(), "the freed slot wakes nobody: the queue is empty");
        assertEquals(1, proxy.cluster.counters().failedRequests());
    }

    @Test
    void beyondMaxQueueTheAnswerIs503AtOnce() {
        twoFullNodes(c -> c.queueTimeoutMs(5_000).maxQueue(1));
        EmbeddedChannel third = proxy.newClient();
        sends(third, "GET /3 HTTP/1.1\r\nHost: h\r\n\r\n");
        EmbeddedChannel fourth = proxy.newClient();
        sends(fourth, "GET /4 HTTP/1.1\r\nHost: h\r\n\r\n");
        String answer = received(fourth);
        assertTrue(answer.startsWith("HTTP/1.1 503 Service Unavailable\r\n"), answer);
        assertTrue(answer.contains("\r\nretry-after: 1\r\n"), answer);
        assertTrue(answer.endsWith("is full (1 requests)\n") || answer.contains("is full"), answer);
        assertEquals(RequestPhase.QUEUED, exchangeOf(third).requestPhase(), "the one in the queue still waits");
        assertEquals(1, proxy.cluster.queue().length());
    }

    @Test
    void withoutAQueueAFullClusterAnswers503AtOnceWithRetryAfter() {
        twoFullNodes(c -> { });
        EmbeddedChannel third = proxy.newClient();
        sends(third, "GET /3 HTTP/1.1\r\nHost: h\r\n\r\n");
        String answer = received(third);
        assertTrue(answer.startsWith("HTTP/1.1 503 Service Unavailable\r\n"), answer);
        assertTrue(answer.contains("\r\nretry-after: 1\r\n"), answer);
        assertEquals(RequestPhase.IDLE, exchangeOf(third).requestPhase());
    }

    @Test
    void waitingRequestsGoFirstInFirstOut() {
        twoFullNodes(c -> c.queueTimeoutMs(5_000));
        EmbeddedChannel third = proxy.newClient();
        sends(third, "GET /3 HTTP/1.1\r\nHost: h\r\n\r\n");
        EmbeddedChannel fourth = proxy.newClient();
        sends(fourth, "GET /4 HTTP/1.1\r\nHost: h\r\n\r\n");
        assertEquals(2, proxy.cluster.queue().length());
        proxy.nodeSends(1, OK); // node b frees first
        received(fourth); // the fourth's loop runs first: it must not jump the line
        received(third);
        assertEquals(3, proxy.nodeConnections.size());
        assertTrue(proxy.nodeReceived(2).startsWith("GET /3 "), "the first to wait is the first sent");
        assertEquals(RequestPhase.QUEUED, exchangeOf(fourth).requestPhase());
        proxy.nodeSends(0, OK);
        received(fourth);
        assertTrue(proxy.nodeReceived(3).startsWith("GET /4 "));
    }

    @Test
    void aNewRequestQueuesBehindWaitingOnesEvenWhenASlotIsFree() {
        twoFullNodes(c -> c.queueTimeoutMs(5_000));
        EmbeddedChannel third = proxy.newClient();
        sends(third, "GET /3 HTTP/1.1\r\nHost: h\r\n\r\n");
        proxy.nodeSends(0, OK); // a's slot frees; the third is woken, but its loop has not run yet
        EmbeddedChannel fourth = proxy.newClient();
        sends(fourth, "GET /4 HTTP/1.1\r\nHost: h\r\n\r\n");
        assertEquals(RequestPhase.QUEUED, exchangeOf(fourth).requestPhase(), "behind the third, not ahead");
        received(third);
        assertTrue(proxy.nodeReceived(2).startsWith("GET /3 "));
    }

    @Test
    void aClientThatLeavesTheQueueIsTakenOutOfIt() {
        twoFullNodes(c -> c.queueTimeoutMs(5_000));
        EmbeddedChannel third = proxy.newClient();
        sends(third, "GET /3 HTTP/1.1\r\nHost: h\r\n\r\n");
        third.close();
        assertEquals(0, proxy.cluster.queue().length());
        assertEquals(0, proxy.cluster.counters().queueLength());
        proxy.nodeSends(0, OK);
        assertEquals(2, proxy.nodeConnections.size(), "nothing is sent for a client that left");
    }

    @Test
    void aRequestThatFindsEveryNodeRefusingWaitsInTheQueueInsteadOf502() {
        proxy = new EmbeddedProxy(c -> c.queueTimeoutMs(1_000));
        proxy.next = EmbeddedProxy.Connect.REFUSE;
        proxy.clientSends("GET /x HTTP/1.1\r\nHost: h\r\n\r\n");
        assertEquals(RequestPhase.QUEUED, proxy.frontend.exchangeForTests().requestPhase(), "both refused: it waits");
        assertEquals("", proxy.clientReceived());
        proxy.advance(1_001);
        String answer = proxy.clientReceived();
        assertTrue(answer.startsWith("HTTP/1.1 503 Service Unavailable\r\n"), answer);
        assertTrue(answer.contains("\r\nretry-after: 1\r\n"), answer);
        proxy.assertSettled();
    }
}
