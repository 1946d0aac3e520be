package io.loadwise.dispatcher.adversarial;

import static io.loadwise.dispatcher.adversarial.H2RawClient.CONTINUATION;
import static io.loadwise.dispatcher.adversarial.H2RawClient.DATA;
import static io.loadwise.dispatcher.adversarial.H2RawClient.END_HEADERS;
import static io.loadwise.dispatcher.adversarial.H2RawClient.END_STREAM;
import static io.loadwise.dispatcher.adversarial.H2RawClient.ENHANCE_YOUR_CALM;
import static io.loadwise.dispatcher.adversarial.H2RawClient.HEADERS;
import static io.loadwise.dispatcher.adversarial.H2RawClient.PING;
import static io.loadwise.dispatcher.adversarial.H2RawClient.RST_STREAM;
import static io.loadwise.dispatcher.adversarial.H2RawClient.SETTINGS;
import static io.loadwise.dispatcher.adversarial.H2RawClient.frame;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * HTTP/2 attacks, frame by frame over h2c with prior knowledge: each must end in a GOAWAY (or a refused
 * stream) with nothing, or only what the limit allows, reaching the node.
 */
final class Http2Cases {

    static final String GROUP = "http2";

    private Http2Cases() {
    }

    static List<JavaCase> all() {
        return List.of(
                new JavaCase(GROUP, "a-plain-h2c-request-is-served", "h2", Http2Cases::served),
                new JavaCase(GROUP, "rapid-reset-gets-goaway", "CVE-2023-44487", Http2Cases::rapidReset),
                new JavaCase(GROUP, "continuation-flood-gets-goaway", "CVE-2024-27316", Http2Cases::continuationFlood),
                new JavaCase(GROUP, "hpack-bomb-never-reaches-the-node", "CVE-2016-6581", Http2Cases::hpackBomb),
                new JavaCase(GROUP, "settings-flood-gets-goaway", "CVE-2019-9515", c -> controlFlood(c, SETTINGS)),
                new JavaCase(GROUP, "ping-flood-gets-goaway", "CVE-2019-9512", c -> controlFlood(c, PING)),
                new JavaCase(GROUP, "crlf-in-a-value-never-reaches-the-node", "h2-downgrade", Http2Cases::crlfValue),
                new JavaCase(GROUP, "data-beyond-content-length-never-reaches-the-node", "h2-downgrade",
                        Http2Cases::dataBeyondContentLength),
                new JavaCase(GROUP, "streams-beyond-max-concurrent-are-refused", "h2", Http2Cases::tooManyStreams),
                new JavaCase(GROUP, "a-request-without-method-gets-rst-stream-protocol-error", "RFC 9113 8.3.1",
                        Http2Cases::noMethod),
                new JavaCase(GROUP, "data-short-of-content-length-gets-rst-stream-protocol-error", "RFC 9113 8.1.1",
                        Http2Cases::dataShortOfContentLength),
                new JavaCase(GROUP, "data-on-a-half-closed-stream-gets-rst-stream-stream-closed", "RFC 9113 5.1",
                        c -> frameOnHalfClosedStream(c, false)),
                new JavaCase(GROUP, "headers-on-a-half-closed-stream-get-goaway-stream-closed", "h2spec 5.1/6",
                        c -> frameOnHalfClosedStream(c, true)),
                new JavaCase(GROUP, "headers-on-a-closed-stream-get-goaway-stream-closed", "h2spec 5.1/12",
                        Http2Cases::headersOnClosedStream),
                new JavaCase(GROUP, "a-lower-unused-stream-id-gets-goaway-protocol-error", "h2spec 5.1.1/2",
                        Http2Cases::lowerStreamId),
                new JavaCase(GROUP, "prior-knowledge-only-closes-on-an-invalid-preface", "h2spec 3.5/2",
                        Http2Cases::invalidPreface),
                new JavaCase(GROUP, "a-stream-window-beyond-2^31-1-gets-rst-stream-flow-control-error",
                        "RFC 9113 6.9.1", Http2Cases::streamWindowOverflow),
                new JavaCase(GROUP, "a-priority-frame-of-4-bytes-gets-rst-stream-frame-size-error", "RFC 9113 6.3",
                        Http2Cases::shortPriority),
                // The request's fields are validated once, on the way in (names by the frame codec, values by
                // StreamAdapter), and not again as HTTP/1.1 fields: each kind of bad field must still be refused.
                new JavaCase(GROUP, "an-upper-case-field-name-gets-rst-stream-protocol-error", "RFC 9113 8.2.1",
                        c -> badField(c, "X-Upper", "1")),
                new JavaCase(GROUP, "a-space-in-a-field-name-gets-rst-stream-protocol-error", "RFC 9113 8.2.1",
                        c -> badField(c, "x evil", "1")),
                new JavaCase(GROUP, "a-colon-inside-a-field-name-gets-rst-stream-protocol-error", "RFC 9113 8.2.1",
                        c -> badField(c, "x:evil", "1")),
                new JavaCase(GROUP, "a-nul-in-a-value-gets-rst-stream-protocol-error", "RFC 9113 8.2.1",
                        c -> badField(c, "x-evil", "a\0b")),
                new JavaCase(GROUP, "a-del-in-a-value-gets-rst-stream-protocol-error", "RFC 9113 8.2.1",
                        c -> badField(c, "x-evil", "a\u007fb")),
                new JavaCase(GROUP, "a-value-with-a-leading-space-gets-rst-stream-protocol-error", "RFC 9113 8.2.1",
                        c -> badField(c, "x-evil", " a")),
                new JavaCase(GROUP, "a-host-other-than-the-authority-gets-400", "RFC 9113 8.3.1",
                        Http2Cases::hostAgainstAuthority),
                new JavaCase(GROUP, "routes-match-the-authority", "issue 30", Http2Cases::routedByAuthority),
                new JavaCase(GROUP, "goaway-on-shutdown", "h2", Http2Cases::goAwayOnShutdown));
    }

    private static H2RawClient client(CaseContext ctx, ProxyUnderTest proxy) throws Exception {
        return ctx.register(new H2RawClient(proxy.address(), 3_000));
    }

    /** The response HEADERS of {@code stream}: its :status (a static-table index or a literal). */
    private static H2RawClient.Frame responseHeaders(H2RawClient client, int stream) throws Exception {
        H2RawClient.Frame frame;
        while ((frame = client.read()) != null) {
            if (frame.type() == HEADERS && frame.stream() == stream) {
                return frame;
            }
        }
        return null;
    }

    private static void served(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        H2RawClient client = client(ctx, ctx.proxy(new ClusterOverrides(), node));
        client.write(frame(HEADERS, END_HEADERS | END_STREAM, 1, H2RawClient.requestBlock("GET", "/ok")));
        H2RawClient.Frame head = responseHeaders(client, 1);
        assertNotNull(head, "no response");
        assertEquals((byte) 0x88, head.payload()[0], "not :status 200 (static index 8)");
        assertEquals(1, node.requests().size());
        assertEquals("GET /ok HTTP/1.1", node.requests().get(0).requestLine());
        AccessLogTap.expectPorts(GROUP + "/a-plain-h2c-request", List.of(client.localPort()), "-- 200 raw1");
        assertEquals("h2", AccessLogTap.lines(List.of(client.localPort())).get(0).get("protocol").asText());
    }

    /** A Host naming another entity than :authority: one of them would route and the other reach the node. */
    private static void hostAgainstAuthority(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        H2RawClient client = client(ctx, ctx.proxy(new ClusterOverrides(), node));
        client.write(frame(HEADERS, END_HEADERS | END_STREAM, 1, H2RawClient.requestBlock("GET", "/a",
                "host", "admin.internal")));
        H2RawClient.Frame head = responseHeaders(client, 1);
        assertNotNull(head, "no response");
        assertEquals((byte) 0x8c, head.payload()[0], "not :status 400 (static index 12)");
        assertEquals(0, node.requests().size());
    }

    /** Through a listener with routes: the stream's :authority is the host routes match. */
    private static void routedByAuthority(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        ClusterOverrides routed = new ClusterOverrides()
                .routes("[{\"match\":{\"host\":\"shop.example\"},\"cluster\":\"adversarial\"}]");
        H2RawClient client = client(ctx, ctx.proxy(routed, node));
        client.write(frame(HEADERS, END_HEADERS | END_STREAM, 1, H2RawClient.requestBlock("GET", "/a")));
        H2RawClient.Frame other = responseHeaders(client, 1);
        assertNotNull(other, "no response");
        assertEquals((byte) 0x8d, other.payload()[0], "not :status 404 (static index 13) for :authority x");
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        H2RawClient.literal(block, ":method", "GET");
        H2RawClient.literal(block, ":scheme", "http");
        H2RawClient.literal(block, ":path", "/b");
        H2RawClient.literal(block, ":authority", "SHOP.example");
        client.write(frame(HEADERS, END_HEADERS | END_STREAM, 3, block.toByteArray()));
        H2RawClient.Frame shop = responseHeaders(client, 3);
        assertNotNull(shop, "no response");
        assertEquals((byte) 0x88, shop.payload()[0], "not :status 200 for :authority SHOP.example");
        assertEquals(1, node.requests().size());
        assertEquals("GET /b HTTP/1.1", node.requests().get(0).requestLine());
    }

    private static void rapidReset(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        H2RawClient client = client(ctx, ctx.proxy(new ClusterOverrides(), node));
        ByteArrayOutputStream burst = new ByteArrayOutputStream();
        int streams = 400;
        for (int i = 0; i < streams; i++) {
            int stream = 1 + 2 * i;
            burst.writeBytes(frame(HEADERS, END_HEADERS, stream, H2RawClient.requestBlock("POST", "/r" + i)));
            burst.writeBytes(frame(RST_STREAM, 0, stream, new byte[] {0, 0, 0, 8})); // CANCEL
        }
        client.write(burst.toByteArray());
        // Netty may first send a graceful GOAWAY (NO_ERROR) as it closes, then ENHANCE_YOUR_CALM
        List<Integer> errors = new java.util.ArrayList<>();
        StringBuilder debug = new StringBuilder();
        H2RawClient.Frame frame;
        while ((frame = client.read()) != null) {
            if (frame.type() == H2RawClient.GOAWAY) {
                errors.add(frame.goAwayError());
                debug.append(new String(frame.payload(), 8, frame.payload().length - 8, StandardCharsets.UTF_8));
            }
        }
        assertTrue(errors.contains(ENHANCE_YOUR_CALM), "GOAWAY errors after " + streams + " resets: " + errors
                + " " + debug + "; node saw " + node.requests().size());
        assertTrue(client.closedByServer(), "connection left open");
        assertTrue(node.requests().size() <= 201, node.requests().size() + " requests reached the node");
    }

    private static void continuationFlood(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        H2RawClient client = client(ctx, ctx.proxy(new ClusterOverrides(), node));
        client.write(frame(HEADERS, 0, 1, H2RawClient.requestBlock("GET", "/flood")));
        ByteArrayOutputStream junk = new ByteArrayOutputStream();
        H2RawClient.literal(junk, "x-junk", "j".repeat(1000));
        byte[] piece = frame(CONTINUATION, 0, 1, junk.toByteArray());
        for (int i = 0; i < 2_000 && client.write(piece); i++) {
            // the server gives up long before: writes then fail
        }
        H2RawClient.Frame goAway = client.readUntilGoAway();
        assertNotNull(goAway, "no GOAWAY for an endless header block");
        assertTrue(client.closedByServer(), "connection left open");
        assertEquals(0, node.requests().size(), "the flooded request reached the node");
    }

    private static void hpackBomb(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        H2RawClient client = client(ctx, ctx.proxy(new ClusterOverrides(), node));
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        block.writeBytes(H2RawClient.requestBlock("GET", "/bomb"));
        H2RawClient.indexedLiteral(block, "x-bomb", "b".repeat(4_000)); // enters the dynamic table as index 62
        for (int i = 0; i < 2_000; i++) {
            H2RawClient.integer(block, 0x80, 7, 62); // ~2 bytes each, 4 KB decoded each: 8 MB in all
        }
        client.write(frame(HEADERS, END_HEADERS | END_STREAM, 1, block.toByteArray()));
        H2RawClient.Frame frame;
        boolean refused = false;
        while ((frame = client.read()) != null) {
            boolean status431 = frame.type() == HEADERS && frame.stream() == 1;
            if (frame.type() == H2RawClient.GOAWAY || frame.type() == RST_STREAM || status431) {
                refused = true;
                break;
            }
        }
        assertTrue(refused, "an 8 MB header list was neither refused nor answered");
        assertEquals(0, node.requests().size(), "the bomb reached the node");
    }

    private static void controlFlood(CaseContext ctx, int type) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        H2RawClient client = client(ctx, ctx.proxy(new ClusterOverrides(), node));
        byte[] one = type == PING ? frame(PING, 0, 0, new byte[8]) : frame(SETTINGS, 0, 0, new byte[0]);
        ByteArrayOutputStream burst = new ByteArrayOutputStream();
        for (int i = 0; i < 500; i++) {
            burst.writeBytes(one);
        }
        client.write(burst.toByteArray());
        H2RawClient.Frame goAway = client.readUntilGoAway();
        assertNotNull(goAway, "no GOAWAY after 500 " + (type == PING ? "PING" : "SETTINGS") + " frames");
        assertEquals(ENHANCE_YOUR_CALM, goAway.goAwayError());
        assertTrue(client.closedByServer(), "connection left open");
    }

    private static void crlfValue(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        H2RawClient client = client(ctx, ctx.proxy(new ClusterOverrides(), node));
        client.write(frame(HEADERS, END_HEADERS | END_STREAM, 1, H2RawClient.requestBlock("GET", "/a",
                "x-evil", "1\r\nContent-Length: 0\r\n\r\nGET /smuggled HTTP/1.1")));
        H2RawClient.Frame refusal;
        while ((refusal = client.read()) != null && refusal.stream() != 1 && refusal.type() != H2RawClient.GOAWAY) {
            // settings and the like
        }
        assertNotNull(refusal, "neither a response nor a reset");
        assertEquals(0, node.requests().size(), "a value with CR LF reached the node");
    }

    private static void dataBeyondContentLength(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        H2RawClient client = client(ctx, ctx.proxy(new ClusterOverrides(), node));
        client.write(frame(HEADERS, END_HEADERS, 1, H2RawClient.requestBlock("POST", "/a", "content-length", "5")));
        client.write(frame(DATA, END_STREAM, 1, "12345GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n"
                .getBytes(StandardCharsets.ISO_8859_1)));
        H2RawClient.Frame frame;
        while ((frame = client.read()) != null && !(frame.stream() == 1 && frame.type() != DATA)) {
            // until the stream's response or reset
        }
        StringBuilder raw = new StringBuilder();
        for (NodeRequest request : node.requests()) {
            raw.append(new String(request.raw(), StandardCharsets.ISO_8859_1));
        }
        assertTrue(node.requests().size() <= 1, node.requests().size() + " requests reached the node");
        assertTrue(raw.indexOf("smuggled") < 0, "bytes beyond content-length reached the node: "
                + Escapes.show(raw.toString()));
    }

    /** RST_STREAM error codes (RFC 9113 §7). */
    private static final int PROTOCOL_ERROR = 0x1;
    private static final int FLOW_CONTROL_ERROR = 0x3;
    private static final int STREAM_CLOSED = 0x5;
    private static final int FRAME_SIZE_ERROR = 0x6;
    private static final int WINDOW_UPDATE = 8;
    private static final int PRIORITY = 2;

    /**
     * The first RST_STREAM or GOAWAY on stream 1 (or the connection): it must be an RST_STREAM with
     * {@code code}, the connection stays open (a PING is still answered), and nothing reached the node.
     */
    private static void assertStreamReset(H2RawClient client, RawNode node, int code) throws Exception {
        H2RawClient.Frame frame;
        while ((frame = client.read()) != null && frame.type() != RST_STREAM && frame.type() != H2RawClient.GOAWAY) {
            // SETTINGS, WINDOW_UPDATE, a response that must not come
            assertTrue(frame.stream() != 1 || frame.type() == WINDOW_UPDATE, "stream 1 got frame type "
                    + frame.type() + " before its reset");
        }
        assertNotNull(frame, "neither RST_STREAM nor GOAWAY");
        assertEquals(RST_STREAM, frame.type(), "a stream error, not a connection error");
        assertEquals(1, frame.stream());
        assertEquals(code, rstError(frame));
        byte[] ping = "stillup!".getBytes(StandardCharsets.US_ASCII);
        client.write(frame(PING, 0, 0, ping));
        H2RawClient.Frame pong;
        while ((pong = client.read()) != null && pong.type() != PING) {
            // whatever else is in flight
        }
        assertNotNull(pong, "the connection did not survive the stream error");
        assertEquals(0, node.requests().size(), "the malformed request reached the node");
    }

    private static int rstError(H2RawClient.Frame frame) {
        byte[] p = frame.payload();
        return ((p[0] & 0xff) << 24) | ((p[1] & 0xff) << 16) | ((p[2] & 0xff) << 8) | (p[3] & 0xff);
    }

    private static void badField(CaseContext ctx, String name, String value) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        H2RawClient client = client(ctx, ctx.proxy(new ClusterOverrides(), node));
        client.write(frame(HEADERS, END_HEADERS | END_STREAM, 1, H2RawClient.requestBlock("GET", "/a", name, value)));
        assertStreamReset(client, node, PROTOCOL_ERROR);
    }

    private static void noMethod(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        H2RawClient client = client(ctx, ctx.proxy(new ClusterOverrides(), node));
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        H2RawClient.literal(block, ":scheme", "http");
        H2RawClient.literal(block, ":path", "/no-method");
        H2RawClient.literal(block, ":authority", "x");
        client.write(frame(HEADERS, END_HEADERS | END_STREAM, 1, block.toByteArray()));
        assertStreamReset(client, node, PROTOCOL_ERROR);
    }

    private static void dataShortOfContentLength(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        H2RawClient client = client(ctx, ctx.proxy(new ClusterOverrides(), node));
        client.write(frame(HEADERS, END_HEADERS, 1, H2RawClient.requestBlock("POST", "/a", "content-length", "10")));
        client.write(frame(DATA, END_STREAM, 1, "12345".getBytes(StandardCharsets.US_ASCII)));
        H2RawClient.Frame frame;
        while ((frame = client.read()) != null && frame.type() != RST_STREAM && frame.type() != H2RawClient.GOAWAY) {
            assertTrue(frame.stream() != 1 || frame.type() == WINDOW_UPDATE, "stream 1 got a response: " + frame.type());
        }
        assertNotNull(frame, "neither RST_STREAM nor GOAWAY");
        assertEquals(RST_STREAM, frame.type());
        assertEquals(PROTOCOL_ERROR, rstError(frame));
        // the head may have gone on to the node (a body streams), but the node's request is cut, never whole
    }

    /**
     * After a request's END_STREAM, DATA or a second HEADERS on the same stream (h2spec 5.1/5, 5.1/6): a stream
     * error, the connection goes on. DATA gets STREAM_CLOSED as RFC 9113 §5.1 says; HEADERS gets Netty's
     * PROTOCOL_ERROR ("too many headers"), a stream error all the same (the RFC's code would be STREAM_CLOSED).
     */
    private static void frameOnHalfClosedStream(CaseContext ctx, boolean headers) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        H2RawClient client = client(ctx, ctx.proxy(new ClusterOverrides(), node));
        ByteArrayOutputStream both = new ByteArrayOutputStream();
        both.writeBytes(frame(HEADERS, END_HEADERS | END_STREAM, 1, H2RawClient.requestBlock("GET", "/ended")));
        ByteArrayOutputStream trailer = new ByteArrayOutputStream();
        H2RawClient.literal(trailer, "x-late", "1"); // a well-formed field section: only the stream state is wrong
        both.writeBytes(headers ? frame(HEADERS, END_HEADERS, 1, trailer.toByteArray()) // as h2spec 5.1/6 sends it
                : frame(DATA, END_STREAM, 1, "late".getBytes(StandardCharsets.US_ASCII)));
        client.write(both.toByteArray()); // one write: the DATA arrives before any response could end the stream
        H2RawClient.Frame frame;
        while ((frame = client.read()) != null && frame.type() != RST_STREAM && frame.type() != H2RawClient.GOAWAY) {
            // the response may begin first
        }
        assertNotNull(frame, "neither RST_STREAM nor GOAWAY");
        if (headers) { // a connection error (RFC 9113 5.1 allows it for a stream error; h2spec 5.1/6 accepts it)
            assertEquals(H2RawClient.GOAWAY, frame.type());
            assertEquals(STREAM_CLOSED, frame.goAwayError());
        } else {
            assertEquals(RST_STREAM, frame.type());
            assertEquals(STREAM_CLOSED, rstError(frame));
        }
        for (NodeRequest request : node.requests()) {
            assertTrue(new String(request.raw(), StandardCharsets.ISO_8859_1).indexOf("late") < 0,
                    "a frame after END_STREAM reached the node");
        }
    }

    /** HEADERS again on a stream whose request and response both ended: RFC 9113 5.1, a connection error. */
    private static void headersOnClosedStream(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        H2RawClient client = client(ctx, ctx.proxy(new ClusterOverrides(), node));
        client.write(frame(HEADERS, END_HEADERS | END_STREAM, 1, H2RawClient.requestBlock("GET", "/first")));
        H2RawClient.Frame frame;
        while ((frame = client.read()) != null && !(frame.stream() == 1 && (frame.flags() & END_STREAM) != 0)) {
            // until the response's last frame
        }
        assertNotNull(frame, "the first request was not answered");
        client.write(frame(HEADERS, END_HEADERS | END_STREAM, 1, H2RawClient.requestBlock("GET", "/again")));
        H2RawClient.Frame goAway = goAway(client);
        assertNotNull(goAway, "no GOAWAY");
        assertEquals(STREAM_CLOSED, goAway.goAwayError());
        assertEquals(1, node.requests().size(), "the second HEADERS reached the node");
    }

    /** HEADERS opening stream 3 after stream 5: RFC 9113 5.1.1, a connection error PROTOCOL_ERROR. */
    private static void lowerStreamId(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        H2RawClient client = client(ctx, ctx.proxy(new ClusterOverrides(), node));
        ByteArrayOutputStream both = new ByteArrayOutputStream();
        both.writeBytes(frame(HEADERS, END_HEADERS | END_STREAM, 5, H2RawClient.requestBlock("GET", "/five")));
        both.writeBytes(frame(HEADERS, END_HEADERS | END_STREAM, 3, H2RawClient.requestBlock("GET", "/three")));
        client.write(both.toByteArray());
        H2RawClient.Frame goAway = goAway(client);
        assertNotNull(goAway, "no GOAWAY");
        assertEquals(PROTOCOL_ERROR, goAway.goAwayError());
        for (NodeRequest request : node.requests()) {
            assertTrue(!request.requestLine().contains("/three"), "stream 3 reached the node");
        }
    }

    /** With priorKnowledgeOnly, bytes that are not the client preface close the connection (RFC 9113 3.4). */
    private static void invalidPreface(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        ProxyUnderTest proxy = ctx.proxy(new ClusterOverrides().with(b -> b.http2(
                new io.loadwise.dispatcher.config.Http2Config(null, null, null, true))), node);
        RawClient client = ctx.client(proxy);
        client.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        ByteArrayOutputStream answer = new ByteArrayOutputStream();
        assertTrue(client.closed(answer), "the connection stayed open");
        assertTrue(!answer.toString(StandardCharsets.ISO_8859_1).startsWith("HTTP/"),
                "answered as HTTP/1.1: " + Escapes.show(answer.toString(StandardCharsets.ISO_8859_1)));
        assertEquals(0, node.requests().size());
    }

    /** The first GOAWAY the server sends, or null when the connection ends without one. */
    private static H2RawClient.Frame goAway(H2RawClient client) throws Exception {
        H2RawClient.Frame frame;
        while ((frame = client.read()) != null) {
            if (frame.type() == H2RawClient.GOAWAY) {
                return frame;
            }
        }
        return null;
    }

    private static void streamWindowOverflow(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        H2RawClient client = client(ctx, ctx.proxy(new ClusterOverrides(), node));
        byte[] increment = {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff};
        ByteArrayOutputStream burst = new ByteArrayOutputStream();
        burst.writeBytes(frame(HEADERS, END_HEADERS, 1, H2RawClient.requestBlock("POST", "/w")));
        burst.writeBytes(frame(WINDOW_UPDATE, 0, 1, increment));
        burst.writeBytes(frame(WINDOW_UPDATE, 0, 1, increment));
        client.write(burst.toByteArray());
        H2RawClient.Frame frame;
        while ((frame = client.read()) != null && frame.type() != RST_STREAM && frame.type() != H2RawClient.GOAWAY) {
            // settings
        }
        assertNotNull(frame, "neither RST_STREAM nor GOAWAY");
        assertEquals(RST_STREAM, frame.type(), "a stream error (RFC 9113 6.9.1), not a connection error");
        assertEquals(FLOW_CONTROL_ERROR, rstError(frame), "not CANCEL: the error's own code");
    }

    private static void shortPriority(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        H2RawClient client = client(ctx, ctx.proxy(new ClusterOverrides(), node));
        ByteArrayOutputStream burst = new ByteArrayOutputStream();
        burst.writeBytes(frame(HEADERS, END_HEADERS, 1, H2RawClient.requestBlock("POST", "/p")));
        burst.writeBytes(frame(PRIORITY, 0, 1, new byte[] {0, 0, 0, 0}));
        client.write(burst.toByteArray());
        H2RawClient.Frame frame;
        while ((frame = client.read()) != null && frame.type() != RST_STREAM && frame.type() != H2RawClient.GOAWAY) {
            // settings
        }
        assertNotNull(frame, "neither RST_STREAM nor GOAWAY");
        assertEquals(RST_STREAM, frame.type());
        assertEquals(FRAME_SIZE_ERROR, rstError(frame));
    }

    private static void tooManyStreams(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        H2RawClient client = client(ctx, ctx.proxy(new ClusterOverrides(), node));
        ByteArrayOutputStream burst = new ByteArrayOutputStream();
        for (int i = 0; i < 101; i++) { // open, never ended: each holds a slot
            burst.writeBytes(frame(HEADERS, END_HEADERS, 1 + 2 * i, H2RawClient.requestBlock("POST", "/s" + i)));
        }
        client.write(burst.toByteArray());
        H2RawClient.Frame frame;
        boolean refused = false;
        while ((frame = client.read()) != null) {
            if (frame.type() == RST_STREAM && frame.stream() == 201 || frame.type() == H2RawClient.GOAWAY) {
                refused = true;
                break;
            }
        }
        assertTrue(refused, "the 101st concurrent stream was accepted");
    }

    private static void goAwayOnShutdown(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        ProxyUnderTest proxy = ctx.proxy(new ClusterOverrides(), node);
        H2RawClient client = client(ctx, proxy);
        client.write(frame(HEADERS, END_HEADERS | END_STREAM, 1, H2RawClient.requestBlock("GET", "/before")));
        assertNotNull(responseHeaders(client, 1), "no response before the shutdown");
        proxy.close();
        H2RawClient.Frame goAway = client.readUntilGoAway();
        assertNotNull(goAway, "no GOAWAY when the listener closed");
        assertEquals(0, goAway.goAwayError(), "GOAWAY NO_ERROR");
    }
}
