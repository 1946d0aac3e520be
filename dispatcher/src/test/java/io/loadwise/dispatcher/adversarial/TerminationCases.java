package io.loadwise.dispatcher.adversarial;

import static io.loadwise.dispatcher.adversarial.SlowPeerCases.latin1;
import static io.loadwise.dispatcher.adversarial.SlowPeerCases.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

/**
 * Termination states the corpus cannot reach with one live raw node: a node that refuses connections ({@code NC}
 * 502), and then none usable ({@code NC} 503). The other states are checked by {@code log:} lines of the corpus
 * and by the other Java cases.
 */
final class TerminationCases {

    static final String GROUP = "termination";

    private TerminationCases() {
    }

    static List<JavaCase> all() {
        return List.of(new JavaCase(GROUP, "unreachable-node-is-nc-502-then-none-usable-nc-503", "issue 33",
                TerminationCases::unreachable),
                new JavaCase(GROUP, "a-routed-request-logs-listener-route-policy-client-and-timers", "issue 33",
                        TerminationCases::routedFields));
    }

    /**
     * Through a listener of {@code listeners[]} that trusts 127.0.0.1: the line names the listener, the route, the
     * cluster's policy and the client {@code X-Forwarded-For} names; the second request on the connection reuses
     * the pooled node connection ({@code tc} 0) and its {@code th} runs from the first one's end.
     */
    private static void routedFields(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        ProxyUnderTest proxy = ctx.proxy(new ClusterOverrides().routes(
                "[{\"name\":\"shop\",\"match\":{\"pathPrefix\":\"/shop\"},\"cluster\":\"adversarial\"}]"), node);
        RawClient client = ctx.client(proxy);
        client.write(latin1("GET /shop/1 HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.9\r\n\r\n"));
        read(client, 200, "first");
        client.write(latin1("GET /shop/2 HTTP/1.1\r\nHost: x\r\n\r\n"));
        read(client, 200, "second");
        client.write(latin1("GET /elsewhere HTTP/1.1\r\nHost: x\r\n\r\n"));
        read(client, 404, "no route");
        client.close();
        AccessLogTap.expect(GROUP + "/routed-fields", List.of(client), "-- 200 raw1", "-- 200 raw1", "PH 404 -");
        List<com.fasterxml.jackson.databind.JsonNode> lines = AccessLogTap.lines(List.of(client.localPort()));
        for (com.fasterxml.jackson.databind.JsonNode line : lines) {
            assertEquals("edge", line.path("listener").asText(), line.toString());
            assertEquals("127.0.0.1", line.path("client").asText(), line.toString());
            assertTrue(line.path("th").asLong() >= 0 && line.path("ta").asLong() >= 0, line.toString());
        }
        com.fasterxml.jackson.databind.JsonNode first = lines.get(0);
        assertEquals("shop", first.path("route").asText(), first.toString());
        assertEquals("adversarial", first.path("cluster").asText());
        assertEquals("round-robin", first.path("policy").asText());
        assertEquals("203.0.113.9", first.path("forwarded_for").asText(), "the trusted proxy's X-Forwarded-For");
        assertEquals(0, first.path("tw").asLong(), "nothing queued");
        assertEquals(0, first.path("retries").asInt());
        assertEquals("HTTP/1.1", first.path("protocol").asText());
        assertTrue(first.path("tc").isNumber() && first.path("tr").isNumber(), first.toString());
        com.fasterxml.jackson.databind.JsonNode second = lines.get(1);
        assertEquals("127.0.0.1", second.path("forwarded_for").asText(), "no X-Forwarded-For: the peer");
        assertEquals(0, second.path("tc").asLong(), "a pooled node connection");
        com.fasterxml.jackson.databind.JsonNode refused = lines.get(2);
        assertTrue(refused.path("route").isNull() && refused.path("cluster").isNull() && refused.path("tw").isNull(),
                refused.toString());
        assertTrue(refused.path("tls_version").isNull() && refused.path("sni").isNull(), refused.toString());
    }

    private static void unreachable(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        ProxyUnderTest proxy = ctx.proxy(new ClusterOverrides().set("connectAttempts", 1), node);
        node.close(); // its port now refuses connections
        RawClient first = ctx.client(proxy);
        first.write(latin1("GET /1 HTTP/1.1\r\nHost: x\r\n\r\n"));
        read(first, 502, "a node refusing connections");
        RawClient second = ctx.client(proxy);
        second.write(latin1("GET /2 HTTP/1.1\r\nHost: x\r\n\r\n"));
        read(second, 503, "the only node marked down");
        AccessLogTap.expect(GROUP + "/unreachable", List.of(first), "NC 502 -");
        AccessLogTap.expect(GROUP + "/unreachable", List.of(second), "NC 503 -");
        assertEquals(0, node.requests().size());
    }
}
