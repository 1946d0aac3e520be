package io.loadwise.dispatcher.adversarial;

import static io.loadwise.dispatcher.adversarial.RawH2Node.CONTINUATION;
import static io.loadwise.dispatcher.adversarial.RawH2Node.DATA;
import static io.loadwise.dispatcher.adversarial.RawH2Node.END_HEADERS;
import static io.loadwise.dispatcher.adversarial.RawH2Node.END_STREAM;
import static io.loadwise.dispatcher.adversarial.RawH2Node.HEADERS;
import static io.loadwise.dispatcher.adversarial.RawH2Node.PUSH_PROMISE;
import static io.loadwise.dispatcher.adversarial.RawH2Node.RST_STREAM;
import static io.loadwise.dispatcher.adversarial.RawH2Node.block;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Nodes spoken to over HTTP/2 ({@code nodeProtocol: h2c}) that misbehave frame by frame ({@link RawH2Node}): trailers
 * without {@code grpc-status}, RST_STREAM, a trailer block beyond {@code maxHeaderBytes}, a server push the proxy
 * never asked for, and a node allowing one stream at a time. The client is HTTP/1.1, so trailers are read as a
 * chunked trailer section.
 */
final class H2NodeCases {

    static final String GROUP = "h2-nodes";
    private static final String GRPC_CALL = "POST /svc/Call HTTP/1.1\r\nHost: x\r\nContent-Type: application/grpc\r\n"
            + "TE: trailers\r\nContent-Length: 6\r\n\r\n\0\0\0\0\1x";

    private H2NodeCases() {
    }

    static List<JavaCase> all() {
        return List.of(
                new JavaCase(GROUP, "trailers-without-grpc-status-are-relayed-as-they-came", "issue 34 gRPC",
                        H2NodeCases::noGrpcStatus),
                new JavaCase(GROUP, "a-node-rst-stream-before-the-head-is-502", "RFC 9113 6.4",
                        H2NodeCases::resetBeforeHead),
                new JavaCase(GROUP, "a-refused-stream-goes-to-the-other-node", "RFC 9113 8.7",
                        H2NodeCases::refusedStream),
                new JavaCase(GROUP, "a-trailer-block-beyond-max-header-bytes-cuts-the-response", "RFC 9113 10.5.1",
                        H2NodeCases::hugeTrailers),
                new JavaCase(GROUP, "a-push-promise-never-reaches-the-client", "RFC 9113 8.4",
                        H2NodeCases::pushPromise),
                new JavaCase(GROUP, "one-stream-at-a-time-when-the-node-allows-one", "RFC 9113 5.1.2",
                        H2NodeCases::oneStreamAtATime));
    }

    private static ProxyUnderTest proxy(CaseContext ctx, RawH2Node node) throws Exception {
        return proxy(ctx, node, 256);
    }

    private static ProxyUnderTest proxy(CaseContext ctx, RawH2Node node, int maxConnections) throws Exception {
        return ctx.register(ProxyUnderTest.start(ctx.transport(), new ClusterOverrides()
                .with(b -> b.nodeProtocol("h2c").maxConnectionsPerNode(maxConnections)), List.of(node.address())));
    }

    private static RawH2Node node(CaseContext ctx, int maxStreams, RawH2Node.Script script) throws Exception {
        return ctx.register(new RawH2Node(maxStreams, script));
    }

    private static RawClient send(CaseContext ctx, ProxyUnderTest proxy, String request) throws Exception {
        RawClient client = ctx.client(proxy);
        client.write(request.getBytes(StandardCharsets.ISO_8859_1));
        return client;
    }

    private static byte[] grpcMessage() {
        return new byte[] {0, 0, 0, 0, 2, 'h', 'i'};
    }

    private static void noGrpcStatus(CaseContext ctx) throws Exception {
        RawH2Node node = node(ctx, 100, (c, stream) -> {
            c.frame(HEADERS, END_HEADERS, stream, block(":status", "200", "content-type", "application/grpc"));
            c.frame(DATA, 0, stream, grpcMessage());
            c.frame(HEADERS, END_HEADERS | END_STREAM, stream, block("x-other", "1"));
        });
        RawClient client = send(ctx, proxy(ctx, node), GRPC_CALL);
        ClientResponse response = client.read(false);
        assertEquals(200, response.status(), response.toString());
        assertTrue(response.complete(), response.toString());
        assertEquals(List.of("1"), response.trailerValues("x-other"), response.toString());
        assertEquals(List.of(), response.trailerValues("grpc-status"), "the proxy adds none: " + response);
        assertEquals(List.of(), response.values("grpc-status"), response.toString());
        assertTrue(Arrays.equals(grpcMessage(), response.body()), "the message, unchanged");
        client.close();
        AccessLogTap.expect(GROUP + "/no-grpc-status", List.of(client), "-- 200 raw1");
    }

    private static void resetBeforeHead(CaseContext ctx) throws Exception {
        RawH2Node node = node(ctx, 100, (c, stream) -> c.frame(RST_STREAM, 0, stream, new byte[] {0, 0, 0, 2}));
        ProxyUnderTest proxy = proxy(ctx, node);
        RawClient client = send(ctx, proxy, "GET /a HTTP/1.1\r\nHost: x\r\n\r\n");
        assertEquals(502, client.read(false).status());
        RawClient grpc = send(ctx, proxy, GRPC_CALL);
        ClientResponse answer = grpc.read(false);
        assertEquals(200, answer.status(), "a gRPC call gets its status as gRPC: " + answer);
        assertEquals(List.of("14"), answer.values("grpc-status"), answer.toString());
        assertEquals(1, node.connections.get(), "a reset stream leaves its connection serving");
        client.close();
        grpc.close();
        AccessLogTap.expect(GROUP + "/rst-stream", List.of(client, grpc), "NR 502 raw1", "NR 502 raw1");
    }

    private static void refusedStream(CaseContext ctx) throws Exception {
        RawH2Node refusing = node(ctx, 100, (c, stream) -> c.frame(RST_STREAM, 0, stream, new byte[] {0, 0, 0, 7}));
        RawH2Node serving = node(ctx, 100, (c, stream) -> c.frame(HEADERS, END_HEADERS | END_STREAM, stream,
                block(":status", "200", "content-length", "0")));
        ProxyUnderTest proxy = ctx.register(ProxyUnderTest.start(ctx.transport(), new ClusterOverrides()
                .with(b -> b.nodeProtocol("h2c").policy("test-first-usable").retryOn(List.of("refused-stream"))),
                List.of(refusing.address(), serving.address())));
        RawClient client = send(ctx, proxy, "GET /order HTTP/1.1\r\nHost: x\r\n\r\n");
        assertEquals(200, client.read(false).status(), "REFUSED_STREAM: never processed, safe to send again");
        assertEquals(1, refusing.requests.get());
        assertEquals(1, serving.requests.get());
        client.close();
        AccessLogTap.expect(GROUP + "/refused-stream", List.of(client), "-- 200 raw2");
        assertEquals(1, AccessLogTap.lines(List.of(client.localPort())).get(0).get("retries").asInt(), "retries");
    }

    private static void hugeTrailers(CaseContext ctx) throws Exception {
        RawH2Node node = node(ctx, 100, (c, stream) -> {
            c.frame(HEADERS, END_HEADERS, stream, block(":status", "200"));
            c.frame(DATA, 0, stream, "body\n".getBytes(StandardCharsets.US_ASCII));
            byte[] trailers = block("x-huge", "v".repeat(70_000)); // beyond 64 KiB, the node's head limit
            int frames = 0;
            for (int at = 0; at < trailers.length; at += 16_384, frames++) {
                byte[] part = Arrays.copyOfRange(trailers, at, Math.min(trailers.length, at + 16_384));
                boolean last = at + 16_384 >= trailers.length;
                c.frame(frames == 0 ? HEADERS : CONTINUATION, (last ? END_HEADERS : 0) | (frames == 0 ? END_STREAM : 0),
                        stream, part);
            }
        });
        ProxyUnderTest proxy = proxy(ctx, node);
        RawClient client = send(ctx, proxy, "GET /a HTTP/1.1\r\nHost: x\r\n\r\n");
        ClientResponse response = client.read(false);
        assertEquals(200, response.status());
        assertFalse(response.complete(), "the response is cut, never ended as if whole: " + response);
        assertEquals(List.of(), response.trailerValues("x-huge"));
        RawClient next = send(ctx, proxy, "GET /b HTTP/1.1\r\nHost: x\r\n\r\n");
        assertEquals(200, next.read(false).status(), "the proxy serves on");
        client.close();
        AccessLogTap.expect(GROUP + "/huge-trailers", List.of(client), "ND 502 raw1");
    }

    private static void pushPromise(CaseContext ctx) throws Exception {
        RawH2Node node = node(ctx, 100, (c, stream) -> {
            byte[] promise = block(":method", "GET", ":scheme", "http", ":path", "/pushed", ":authority", "x");
            byte[] payload = new byte[4 + promise.length];
            payload[3] = 2; // promised stream 2
            System.arraycopy(promise, 0, payload, 4, promise.length);
            c.frame(PUSH_PROMISE, END_HEADERS, stream, payload);
            c.frame(HEADERS, END_HEADERS | END_STREAM, stream, block(":status", "200", "content-length", "0"));
        });
        RawClient client = send(ctx, proxy(ctx, node), "GET /a HTTP/1.1\r\nHost: x\r\n\r\n");
        ClientResponse response = client.read(false);
        assertEquals(502, response.status(), "push is disabled in our SETTINGS: a connection error, " + response);
        client.close();
        AccessLogTap.expect(GROUP + "/push-promise", List.of(client), "NR 502 raw1");
    }

    private static void oneStreamAtATime(CaseContext ctx) throws Exception {
        RawH2Node node = node(ctx, 1, (c, stream) -> {
            Thread.sleep(150);
            c.frame(HEADERS, END_HEADERS | END_STREAM, stream, block(":status", "200", "content-length", "0"));
        });
        ProxyUnderTest proxy = proxy(ctx, node, 1);
        RawClient[] clients = new RawClient[3];
        for (int i = 0; i < clients.length; i++) {
            clients[i] = send(ctx, proxy, "GET /" + i + " HTTP/1.1\r\nHost: x\r\n\r\n");
        }
        for (RawClient client : clients) {
            assertEquals(200, client.read(false).status());
        }
        assertEquals(3, node.requests.get());
        assertEquals(1, node.maxOpen.get(), "never more streams open than the node's SETTINGS allow");
        for (RawClient client : clients) {
            client.close();
        }
        AccessLogTap.expect(GROUP + "/one-stream", List.of(clients[0]), "-- 200 raw1");
    }
}
