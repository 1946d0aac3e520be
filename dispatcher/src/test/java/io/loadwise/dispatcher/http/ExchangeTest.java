package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.http.Exchange.RequestPhase;
import io.loadwise.dispatcher.http.Exchange.ResponsePhase;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The L7 exchange's transitions and error paths on embedded channels: every byte moved and every
 * millisecond passed by the test, so each state can be reached and each deadline crossed exactly.
 */
class ExchangeTest {

    private static final String GET = "GET /x HTTP/1.1\r\nHost: h\r\n\r\n";
    private static final String OK = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

    private EmbeddedProxy proxy;

    @AfterEach
    void close() {
        if (proxy != null) {
            proxy.close();
        }
    }

    private Exchange exchange() {
        return proxy.frontend.exchangeForTests();
    }

    @Test
    void aRequestGoesThroughEveryPhaseAndTheNodeConnectionIsReused() {
        proxy = new EmbeddedProxy(c -> c.nodes(List.of(new NodeConfig("a", "127.0.0.1:1", null, null, null, null))));
        assertEquals(RequestPhase.IDLE, exchange().requestPhase());
        proxy.clientSends(GET);
        assertEquals(RequestPhase.SENT, exchange().requestPhase());
        assertEquals(ResponsePhase.NONE, exchange().responsePhase());
        assertTrue(proxy.nodeReceived(0).startsWith("GET /x HTTP/1.1\r\n"));
        proxy.nodeSends(0, "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nok");
        assertEquals(ResponsePhase.STREAMING, exchange().responsePhase());
        proxy.nodeSends(0, "ok");
        assertEquals(RequestPhase.IDLE, exchange().requestPhase());
        assertTrue(proxy.clientReceived().endsWith("\r\n\r\nokok"));
        proxy.clientSends(GET.replace("/x", "/y"));
        assertTrue(proxy.nodeReceived(0).startsWith("GET /y "), "the pooled connection serves the next request");
        assertEquals(1, proxy.nodeConnections.size());
        proxy.nodeSends(0, OK);
        proxy.assertSettled();
    }

    @Test
    void pipelinedRequestsAreServedInOrderOneAtATime() {
        proxy = new EmbeddedProxy(c -> c.policy("round-robin"));
        proxy.clientSends(GET.replace("/x", "/1") + GET.replace("/x", "/2"));
        assertTrue(proxy.nodeReceived(0).startsWith("GET /1 "), "only the first is sent");
        proxy.nodeSends(0, OK);
        String node2 = proxy.nodeConnections.size() > 1 ? proxy.nodeReceived(1) : proxy.nodeReceived(0);
        assertTrue(node2.startsWith("GET /2 "), "the second follows the first's response: " + node2);
        proxy.nodeSends(proxy.nodeConnections.size() - 1, OK);
        String received = proxy.clientReceived();
        assertEquals(2, received.split("HTTP/1.1 200 OK", -1).length - 1);
        proxy.assertSettled();
    }

    @Test
    void aClientThatLeavesMidBodyEndsTheExchangeAndClosesTheNodeConnection() {
        proxy = new EmbeddedProxy(c -> { });
        proxy.clientSends("POST /up HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nabc");
        assertEquals(RequestPhase.SENDING, exchange().requestPhase());
        proxy.client.close();
        assertEquals(RequestPhase.IDLE, exchange().requestPhase());
        assertFalse(proxy.node(0).isOpen(), "a half-sent request cannot be reused");
        assertEquals(1, proxy.cluster.counters().failedRequests());
        proxy.assertSettled();
    }

    @Test
    void aNodeResetMidResponseCutsTheClient() {
        proxy = new EmbeddedProxy(c -> { });
        proxy.clientSends(GET);
        proxy.nodeSends(0, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial");
        proxy.node(0).close();
        proxy.assertClientClosed();
        assertTrue(proxy.clientReceived().endsWith("partial"));
        proxy.assertSettled();
    }

    @Test
    void aNodeResetBeforeTheResponseIs502AndTheClientStays() {
        proxy = new EmbeddedProxy(c -> c.retryBudgetPercent(0)); // no retry: see ExchangeRetryTest
        proxy.clientSends(GET);
        proxy.node(0).close();
        assertTrue(proxy.clientReceived().startsWith("HTTP/1.1 502 Bad Gateway"));
        assertTrue(proxy.client.isOpen(), "a complete request and no response yet: keep-alive survives");
        proxy.assertSettled();
    }

    @Test
    void aRefusedConnectTriesTheOtherNode() {
        proxy = new EmbeddedProxy(c -> { });
        proxy.next = EmbeddedProxy.Connect.REFUSE;
        proxy.clientSends(GET);
        // the refusal is handled synchronously; the retry connects (next is still REFUSE) and fails too
        assertTrue(proxy.clientReceived().startsWith("HTTP/1.1 502 Bad Gateway"));
        assertTrue(proxy.nodeState("a").connectDown() && proxy.nodeState("b").connectDown());
        proxy.assertSettled();
    }

    @Test
    void connectingTooLongIs504() {
        // no retry budget: with one, the request would wait for another node instead (HttpProxyErrorsTest)
        proxy = new EmbeddedProxy(c -> c.responseTimeoutMs(1_000).retryBudgetPercent(0));
        proxy.next = EmbeddedProxy.Connect.HANG;
        proxy.clientSends(GET);
        assertEquals(RequestPhase.CONNECTING, exchange().requestPhase());
        proxy.advance(999);
        assertEquals(RequestPhase.CONNECTING, exchange().requestPhase(), "not before its time");
        proxy.advance(2);
        assertTrue(proxy.clientReceived().startsWith("HTTP/1.1 504 Gateway Timeout"));
        proxy.assertClientClosed();
        proxy.assertSettled();
    }

    @Test
    void aStalledUploadIs408() {
        proxy = new EmbeddedProxy(c -> c.requestIdleTimeoutMs(500));
        proxy.clientSends("POST /up HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nabc");
        proxy.advance(400);
        proxy.clientSends("de");
        proxy.advance(400);
        assertEquals(RequestPhase.SENDING, exchange().requestPhase(), "progress moved the deadline");
        proxy.advance(1_100);
        assertTrue(proxy.clientReceived().startsWith("HTTP/1.1 408 Request Timeout"));
        assertFalse(proxy.node(0).isOpen());
        proxy.assertClientClosed();
        proxy.assertSettled();
    }

    @Test
    void aSilentNodeIs504AfterTheResponseTimeout() {
        proxy = new EmbeddedProxy(c -> c.responseTimeoutMs(2_000).retryBudgetPercent(0)); // see ExchangeRetryTest
        proxy.clientSends(GET);
        proxy.advance(1_999);
        assertEquals(RequestPhase.SENT, exchange().requestPhase());
        proxy.advance(2);
        assertTrue(proxy.clientReceived().startsWith("HTTP/1.1 504 Gateway Timeout"));
        proxy.assertSettled();
    }

    @Test
    void aResponseThatStallsIsCutAfterTheResponseIdleTimeout() {
        proxy = new EmbeddedProxy(c -> c.responseIdleTimeoutMs(500));
        proxy.clientSends(GET);
        proxy.nodeSends(0, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nsome");
        proxy.advance(400);
        proxy.nodeSends(0, "more");
        proxy.advance(400);
        assertEquals(ResponsePhase.STREAMING, exchange().responsePhase(), "progress moved the deadline");
        proxy.advance(1_100);
        proxy.assertClientClosed();
        assertFalse(proxy.node(0).isOpen());
        proxy.assertSettled();
    }

    @Test
    void anExchangeThatKeepsMovingStillEndsAtTheExchangeTimeout() {
        proxy = new EmbeddedProxy(c -> c.requestIdleTimeoutMs(500).exchangeTimeoutMs(2_000));
        proxy.clientSends("POST /up HTTP/1.1\r\nHost: h\r\nContent-Length: 100\r\n\r\n");
        for (int i = 0; i < 5; i++) {
            proxy.clientSends("x");
            proxy.advance(300);
        }
        assertEquals(RequestPhase.SENDING, exchange().requestPhase());
        proxy.clientSends("x");
        proxy.advance(600);
        assertTrue(proxy.clientReceived().startsWith("HTTP/1.1 408 Request Timeout"));
        proxy.assertSettled();
    }

    @Test
    void aHeadTrickledPastTheHeaderTimeoutIs408() {
        proxy = new EmbeddedProxy(c -> c.headerTimeoutMs(1_000).idleTimeoutMs(5_000));
        proxy.clientSends("GET / HT");
        proxy.advance(600);
        proxy.clientSends("TP/1.1\r\nHo");
        proxy.advance(500);
        assertTrue(proxy.clientReceived().startsWith("HTTP/1.1 408 Request Timeout"));
        proxy.assertClientClosed();
    }

    @Test
    void anIdleKeepAliveConnectionIsClosedAfterTheIdleTimeout() {
        proxy = new EmbeddedProxy(c -> c.idleTimeoutMs(3_000));
        proxy.clientSends(GET);
        proxy.nodeSends(0, OK);
        proxy.advance(2_900);
        assertTrue(proxy.client.isOpen());
        proxy.advance(200);
        proxy.assertClientClosed();
    }

    @Test
    void continueIsRelayedAndTheFinalResponseFollows() {
        proxy = new EmbeddedProxy(c -> { });
        proxy.clientSends("POST /up HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n");
        proxy.nodeSends(0, "HTTP/1.1 100 Continue\r\n\r\n");
        assertEquals(ResponsePhase.NONE, exchange().responsePhase(), "a 1xx is over once relayed");
        assertTrue(proxy.clientReceived().startsWith("HTTP/1.1 100 Continue"));
        proxy.clientSends("hi");
        assertTrue(proxy.nodeReceived(0).endsWith("\r\n\r\nhi"));
        proxy.nodeSends(0, OK);
        assertTrue(proxy.clientReceived().startsWith("HTTP/1.1 200 OK"));
        assertEquals(RequestPhase.IDLE, exchange().requestPhase());
        proxy.assertSettled();
    }

    @Test
    void anUpgradeBecomesATunnelWithTheBytesThatFollowedTheRequest() {
        proxy = new EmbeddedProxy(c -> { });
        proxy.clientSends("GET /ws HTTP/1.1\r\nHost: h\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\nearly");
        assertTrue(proxy.nodeReceived(0).startsWith("GET /ws HTTP/1.1"));
        proxy.nodeSends(0, "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n");
        assertTrue(proxy.clientReceived().startsWith("HTTP/1.1 101 Switching Protocols"));
        assertEquals("early", proxy.nodeReceived(0), "held bytes are relayed raw once switched");
        proxy.nodeSends(0, "frame");
        assertEquals("frame", proxy.clientReceived());
        proxy.assertSettled();
    }

    @Test
    void aRefusedUpgradeClosesTheConnectionAfterTheAnswer() {
        proxy = new EmbeddedProxy(c -> { });
        proxy.clientSends("GET /ws HTTP/1.1\r\nHost: h\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n");
        proxy.nodeSends(0, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
        assertTrue(proxy.clientReceived().contains("connection: close"));
        proxy.assertClientClosed();
    }
}
