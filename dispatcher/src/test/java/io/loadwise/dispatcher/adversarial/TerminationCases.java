package io.loadwise.dispatcher.adversarial;

import static io.loadwise.dispatcher.adversarial.SlowPeerCases.latin1;
import static io.loadwise.dispatcher.adversarial.SlowPeerCases.read;
import static org.junit.jupiter.api.Assertions.assertEquals;

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
                TerminationCases::unreachable));
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
