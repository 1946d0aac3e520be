package io.loadwise.dispatcher.adversarial;

import static io.loadwise.dispatcher.adversarial.SlowPeerCases.assertWithin;
import static io.loadwise.dispatcher.adversarial.SlowPeerCases.latin1;
import static io.loadwise.dispatcher.adversarial.SlowPeerCases.read;
import static io.loadwise.dispatcher.adversarial.Trickle.millisSince;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * Slow and stalled nodes (spec items 15 and 16) where the timing matters: the proxy must give up on a
 * node that stops mid-body, but not on one that is slow and still moving.
 */
final class NodeTimingCases {

    static final String GROUP = "node-timing";

    private NodeTimingCases() {
    }

    static List<JavaCase> all() {
        return List.of(
                new JavaCase(GROUP, "node-stalling-mid-length-body-is-cut", "15", c -> stall(c, false)),
                new JavaCase(GROUP, "node-stalling-mid-chunked-body-is-cut", "15", c -> stall(c, true)),
                new JavaCase(GROUP, "node-dripping-under-idle-timeout-is-relayed-whole", "15",
                        NodeTimingCases::slowButMoving),
                new JavaCase(GROUP, "silent-node-gets-504-after-response-timeout", "16", NodeTimingCases::silent));
    }

    /** A node answering {@code 200} with a {@code length}-byte body, one byte every {@code intervalMs}. */
    static NodeScript dripping(int length, long intervalMs) {
        return (request, out) -> {
            out.write(latin1("HTTP/1.1 200 OK\r\nContent-Length: " + length + "\r\n\r\n"));
            out.flush();
            for (int i = 0; i < length; i++) {
                pace(intervalMs);
                out.write('d');
                out.flush();
            }
            return NodeScript.After.KEEP;
        };
    }

    /** A node answering {@code 200} with {@code size} bytes as fast as the connection takes them. */
    static NodeScript flood(int size) {
        return (request, out) -> {
            out.write(latin1("HTTP/1.1 200 OK\r\nContent-Length: " + size + "\r\n\r\n"));
            byte[] block = new byte[64 * 1024];
            Arrays.fill(block, (byte) 'f');
            for (int sent = 0; sent < size; sent += block.length) {
                out.write(block, 0, Math.min(block.length, size - sent));
            }
            out.flush();
            return NodeScript.After.KEEP;
        };
    }

    /** The pace of a slow node (behaviour under test, not synchronisation). */
    private static void pace(long millis) throws IOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /** 15: head and part of the body, then silence; responseIdleTimeoutMs 500. */
    private static void stall(CaseContext ctx, boolean chunked) throws Exception {
        String partial = chunked ? "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n"
                : "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nhello";
        RawNode node = ctx.node((request, out) -> {
            out.write(latin1(partial));
            out.flush();
            return NodeScript.After.STALL;
        });
        ProxyUnderTest proxy = ctx.proxy(new ClusterOverrides().set("responseIdleTimeoutMs", 500), node);
        RawClient client = ctx.client(proxy, 5_000);
        client.write(latin1("GET /stall HTTP/1.1\r\nHost: x\r\n\r\n"));
        long start = System.nanoTime();
        SlowPeerCases.readCut(client, 200, "a response stalled mid-body");
        assertWithin(millisSince(start), 400, 3_000, "client connection closed");
        assertTrue(NodeChecks.poll(3_000, () -> node.connections().get(0).closedByProxy()),
                "the stalled node connection was not closed: " + NodeChecks.describe(node));
        AccessLogTap.expect(GROUP + "/node-stalling", List.of(client), "TD 504 raw1");
    }

    /** 15, not over-strict: a byte every 100 ms keeps a response with responseIdleTimeoutMs 500 alive. */
    private static void slowButMoving(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(dripping(15, 100));
        ProxyUnderTest proxy = ctx.proxy(new ClusterOverrides().set("responseIdleTimeoutMs", 500), node);
        RawClient client = ctx.client(proxy, 5_000);
        client.write(latin1("GET /drip HTTP/1.1\r\nHost: x\r\n\r\n"));
        ClientResponse response = read(client, 200, "dripping response");
        assertTrue(response.complete(), "a moving response was cut: " + response);
        assertEquals("d".repeat(15), new String(response.body(), java.nio.charset.StandardCharsets.ISO_8859_1));
    }

    /** 16: no answer at all; responseTimeoutMs 500. */
    private static void silent(CaseContext ctx) throws Exception {
        RawNode node = ctx.node((request, out) -> NodeScript.After.STALL);
        ProxyUnderTest proxy = ctx.proxy(new ClusterOverrides().set("responseTimeoutMs", 500), node);
        RawClient client = ctx.client(proxy, 5_000);
        client.write(latin1("GET /silent HTTP/1.1\r\nHost: x\r\n\r\n"));
        long start = System.nanoTime();
        read(client, 504, "silent node");
        assertWithin(millisSince(start), 400, 3_000, "504");
        AccessLogTap.expect(GROUP + "/silent-node", List.of(client), "TR 504 raw1");
    }
}
