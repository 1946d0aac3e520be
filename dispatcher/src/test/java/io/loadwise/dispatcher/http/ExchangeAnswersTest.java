package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.OutcomeSink;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 32 on embedded channels: a node's answers that count as its failures (500 and above, a 404 on a path
 * the other node serves) reach the client unchanged and count in the node's recent failures and in outlier
 * detection; a 404 no other node contradicts counts as an answer like any other.
 */
class ExchangeAnswersTest {

    private static final String OK = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
    private static final String NOT_FOUND = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n";

    private final List<String> outcomes = new ArrayList<>();
    private EmbeddedProxy proxy;

    @AfterEach
    void close() {
        if (proxy != null) {
            proxy.close();
        }
    }

    /** Round robin over a and b, one connection each, kept alive: request i goes to node i % 2. */
    private String answer(String path, String response) {
        proxy.clientSends("GET " + path + " HTTP/1.1\r\nHost: h\r\n\r\n");
        int node = proxy.nodeConnections.size() - 1;
        proxy.nodeReceived(node);
        proxy.nodeSends(node, response);
        String received = proxy.clientReceived();
        proxy.node(node).close(); // a new connection for the next request: its index says which node it went to
        return received;
    }

    private void start() {
        proxy = new EmbeddedProxy(c -> { });
        proxy.cluster.setOutcomes(new OutcomeSink() {
            @Override
            public void onResponse(NodeState node, int status) {
                outcomes.add(node.name() + " " + status);
            }

            @Override
            public void onFailedAnswer(NodeState node) {
                outcomes.add(node.name() + " failed answer");
            }

            @Override
            public void onGatewayFailure(NodeState node) {
                outcomes.add(node.name() + " gateway failure");
            }
        });
    }

    @Test
    void a404OnAPathTheOtherNodeServesIsAFailureOfItsNode() {
        start();
        assertTrue(answer("/trade/buy", OK).startsWith("HTTP/1.1 200 OK")); // a serves the path
        assertTrue(answer("/trade/buy?id=1", NOT_FOUND).startsWith("HTTP/1.1 404 Not Found"), "relayed unchanged");
        assertEquals(1, proxy.nodeState("b").recentFailures(), "b's application is missing");
        assertEquals(0, proxy.nodeState("a").recentFailures());
        assertEquals(List.of("a 200", "b failed answer"), outcomes);
        proxy.assertSettled();
    }

    @Test
    void a404NoOtherNodeContradictsIsAnAnswerLikeAnyOther() {
        start();
        assertTrue(answer("/favicon.ico", NOT_FOUND).startsWith("HTTP/1.1 404"));
        assertTrue(answer("/favicon.ico", NOT_FOUND).startsWith("HTTP/1.1 404"));
        assertEquals(0, proxy.nodeState("a").recentFailures());
        assertEquals(0, proxy.nodeState("b").recentFailures());
        assertEquals(List.of("a 404", "b 404"), outcomes);
        proxy.assertSettled();
    }

    @Test
    void a5xxAnswerIsAFailureOfItsNode() {
        start();
        String response = answer("/trade/buy", "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n");
        assertTrue(response.startsWith("HTTP/1.1 503 Service Unavailable"), "relayed unchanged");
        assertEquals(1, proxy.nodeState("a").recentFailures(), "what the adaptive policy counts as work on a");
        assertEquals(List.of("a 503"), outcomes, "outlier detection judges the status itself");
        proxy.assertSettled();
    }
}
