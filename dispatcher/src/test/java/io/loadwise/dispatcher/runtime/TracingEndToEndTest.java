package io.loadwise.dispatcher.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.TracingConfig;
import io.loadwise.dispatcher.metrics.LatencyHistogram;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.dispatcher.testsupport.Configs;
import io.loadwise.dispatcher.tracing.Tracing;
import io.loadwise.policy.PolicyRegistry;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Tracing through a real dispatcher (issue 33, item 3): real requests over sockets to raw nodes that keep the exact
 * request heads they get, and spans exported by the OpenTelemetry SDK over OTLP/HTTP to {@link OtlpReceiver}, which
 * decodes the protobuf. Checks the parent/child ids from client to server span to client span to the node's
 * {@code traceparent}, {@code tracestate} passed on, a retry as two client spans, parent-based sampling at 0 and 1,
 * a malformed {@code traceparent} replaced (tracing on and off), and the counter an unreachable collector costs.
 */
class TracingEndToEndTest {

    private static final String PARENT_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String PARENT_SPAN = "00f067aa0ba902b7";

    private final LinkedBlockingQueue<String> heads = new LinkedBlockingQueue<>();
    private OtlpReceiver receiver;
    private Transport transport;
    private Dispatcher dispatcher;
    private RawNode good;
    private RawNode resetting;

    private void start(TracingConfig tracing) throws Exception {
        receiver = new OtlpReceiver();
        good = new RawNode(false);
        resetting = new RawNode(true);
        LoadwiseConfig config = new LoadwiseConfig(Configs.config().admin(), null, List.of(
                http("shop", List.of(good.address())),
                http("flaky", List.of(resetting.address(), good.address())),
                http("dead", List.of(Configs.deadAddress()))));
        Tracing.start(tracing); // what loadwise run does
        transport = new Transport(1);
        dispatcher = new Dispatcher(config, null, PolicyRegistry.load(), transport, new ModeListenerFactory());
        dispatcher.start("test-token", false);
    }

    private TracingConfig tracing(double ratio) {
        return new TracingConfig(receiver.endpoint(), ratio);
    }

    private static ClusterConfig http(String name, List<String> nodes) {
        return ClusterConfig.builder().name(name).mode(Mode.HTTP).listen("127.0.0.1:0").policy("round-robin")
                .connectTimeoutMs(1_000).connectAttempts(1)
                .nodes(Configs.nodes(nodes.toArray(String[]::new))).build();
    }

    @AfterEach
    void stop() throws IOException {
        Tracing.stop();
        if (dispatcher != null) {
            dispatcher.close();
        }
        if (transport != null) {
            transport.close();
        }
        for (AutoCloseable c : new AutoCloseable[] {receiver, good, resetting}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                // closing anyway
            }
        }
    }

    @Test
    void aSampledParentMakesServerAndClientSpansAndTheNodeSeesTheClientSpanAsParent() throws Exception {
        start(null);
        Tracing.start(tracing(0.0)); // ratio 0: only the parent's decision can sample it
        String response = send("shop", "GET /cart?q=1 HTTP/1.1\r\nHost: x\r\ntraceparent: 00-" + PARENT_TRACE + "-"
                + PARENT_SPAN + "-01\r\ntracestate: congo=t61rcWkgMzE,rojo=00f067aa0ba902b7\r\nConnection: close\r\n\r\n");
        assertTrue(response.startsWith("HTTP/1.1 200 "), response);

        List<Span> spans = awaitSpans(2);
        Span server = only(spans, Span.SpanKind.SPAN_KIND_SERVER);
        Span client = only(spans, Span.SpanKind.SPAN_KIND_CLIENT);
        assertEquals(PARENT_TRACE, hex(server.getTraceId()));
        assertEquals(PARENT_SPAN, hex(server.getParentSpanId()), "the server span is the client's span's child");
        assertEquals(PARENT_TRACE, hex(client.getTraceId()));
        assertEquals(hex(server.getSpanId()), hex(client.getParentSpanId()), "one client span per attempt, under it");
        assertEquals("congo=t61rcWkgMzE,rojo=00f067aa0ba902b7", server.getTraceState());
        assertEquals("shop", attr(server, "loadwise.cluster"));
        assertEquals("round-robin", attr(server, "loadwise.policy"));
        assertEquals("GET", attr(server, "http.request.method"));
        assertEquals("200", attr(server, "http.response.status_code"));
        assertEquals("n1", attr(server, "loadwise.node"));
        assertEquals("n1", attr(client, "loadwise.node"));
        assertEquals("1", attr(client, "loadwise.attempt"));
        assertEquals("1.1", attr(client, "network.protocol.version"), "what the node was spoken to in");
        assertNull(attr(server, "loadwise.termination"), "a normal end (--) is not written on every span");
        assertTrue(Double.parseDouble(attr(client, "loadwise.queue_time_ms")) >= 0);
        assertTrue(Double.parseDouble(attr(client, "loadwise.connect_time_ms")) >= 0);
        assertTrue(Long.parseLong(attr(client, "loadwise.node.in_flight")) >= 0);
        assertEquals(List.of("loadwise"), receiver.services.stream().distinct().toList());
        assertEquals("application/x-protobuf", receiver.contentTypes.get(0));

        String head = heads.poll(10, TimeUnit.SECONDS);
        assertEquals("traceparent: 00-" + PARENT_TRACE + "-" + hex(client.getSpanId()) + "-" + flags(client), line(head, "traceparent"),
                head);
        assertEquals("tracestate: congo=t61rcWkgMzE,rojo=00f067aa0ba902b7", line(head, "tracestate"), head);
    }

    @Test
    void withRatioOneANewTraceIsSampledAndWithRatioZeroItIsNotButStillPropagated() throws Exception {
        start(null);
        Tracing.start(tracing(1.0));
        send("shop", "GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        List<Span> spans = awaitSpans(2);
        Span server = only(spans, Span.SpanKind.SPAN_KIND_SERVER);
        Span client = only(spans, Span.SpanKind.SPAN_KIND_CLIENT);
        assertTrue(server.getParentSpanId().isEmpty(), "a root span: the client sent no traceparent");
        assertEquals("traceparent: 00-" + hex(server.getTraceId()) + "-" + hex(client.getSpanId()) + "-" + flags(client),
                line(heads.poll(10, TimeUnit.SECONDS), "traceparent"));
        assertEquals(1, Integer.parseInt(flags(client), 16) & 1, "sampled");

        Tracing.start(tracing(0.0));
        receiver.spans.clear();
        send("shop", "GET /b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        String unsampled = line(heads.poll(10, TimeUnit.SECONDS), "traceparent");
        // not sampled (bit 0 clear); 02 is level 2's "random trace id" flag, which the SDK sets on new traces
        assertTrue(unsampled.matches("traceparent: 00-[0-9a-f]{32}-[0-9a-f]{16}-0[02]"), unsampled);
        // a sampled request after it: once its spans are in, the unsampled one's would have been too
        send("shop", "GET /c HTTP/1.1\r\nHost: x\r\ntraceparent: 00-" + PARENT_TRACE + "-" + PARENT_SPAN
                + "-01\r\nConnection: close\r\n\r\n");
        heads.poll(10, TimeUnit.SECONDS);
        List<Span> after = awaitSpans(2);
        assertEquals(2, after.size(), "only the sampled request's spans: " + after);
        after.forEach(s -> assertEquals(PARENT_TRACE, hex(s.getTraceId())));
        assertFalse(unsampled.contains(PARENT_TRACE));
    }

    /** Issue 33 item 4: a sampled request is its cluster's and node's duration exemplar; an unsampled one is not. */
    @Test
    void aSampledRequestIsTheDurationBucketsExemplarOfItsClusterAndNode() throws Exception {
        start(null);
        Tracing.start(tracing(0.0));
        send("shop", "GET /unsampled HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        Await.until("the unsampled request counted", () -> dispatcher.latencyHistograms().clusters().stream()
                .filter(c -> c.cluster().equals("shop")).findFirst().orElseThrow().totals().duration().count() == 1);
        assertEquals(0, exemplarsOf("shop", false).length, "an unsampled request leaves no exemplar");

        Tracing.start(tracing(1.0));
        send("shop", "GET /sampled HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        Span server = only(awaitSpans(2), Span.SpanKind.SPAN_KIND_SERVER);
        Await.until("the sampled request's exemplar", () -> exemplarsOf("shop", true).length == 1);
        for (boolean node : new boolean[] {false, true}) {
            LatencyHistogram.Exemplar[] found = exemplarsOf("shop", node);
            assertEquals(1, found.length, (node ? "node" : "cluster") + " exemplars");
            assertEquals(hex(server.getTraceId()), found[0].traceId());
            assertEquals(hex(server.getSpanId()), found[0].spanId(), "the server span: the proxy's view of the request");
        }
    }

    /** The non-null exemplars of the cluster's duration histogram, or of its only node's. */
    private LatencyHistogram.Exemplar[] exemplarsOf(String cluster, boolean node) {
        var series = dispatcher.latencyHistograms().clusters().stream().filter(c -> c.cluster().equals(cluster))
                .findFirst().orElseThrow();
        LatencyHistogram.Reading reading = node ? series.nodes().get(0).histograms().duration() : series.totals().duration();
        return java.util.Arrays.stream(reading.exemplars()).filter(java.util.Objects::nonNull)
                .toArray(LatencyHistogram.Exemplar[]::new);
    }

    @Test
    void aRetryShowsAsTwoClientSpansUnderOneServerSpan() throws Exception {
        start(null);
        Tracing.start(tracing(1.0));
        // round robin over [resetting, good]: of two requests one goes first to the node that resets
        for (int i = 0; i < 2; i++) {
            String response = send("flaky", "GET /r" + i + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            assertTrue(response.startsWith("HTTP/1.1 200 "), response);
        }
        List<Span> spans = awaitSpans(5);
        List<Span> servers = receiver.ofKind(Span.SpanKind.SPAN_KIND_SERVER);
        assertEquals(2, servers.size(), spans.toString());
        Span retried = servers.stream().filter(s -> attr(s, "loadwise.retry_reason") != null).findFirst().orElseThrow();
        List<Span> attempts = receiver.ofKind(Span.SpanKind.SPAN_KIND_CLIENT).stream()
                .filter(c -> c.getParentSpanId().equals(retried.getSpanId()))
                .sorted((a, b) -> attr(a, "loadwise.attempt").compareTo(attr(b, "loadwise.attempt")))
                .collect(Collectors.toList());
        assertEquals(2, attempts.size(), "two client spans: " + spans);
        assertEquals("n1", attr(attempts.get(0), "loadwise.node"));
        assertEquals(Status.StatusCode.STATUS_CODE_ERROR, attempts.get(0).getStatus().getCode());
        assertEquals("n2", attr(attempts.get(1), "loadwise.node"));
        assertEquals("2", attr(attempts.get(1), "loadwise.attempt"));
        assertTrue(attr(attempts.get(1), "loadwise.retry_reason").contains("closed the connection"),
                attr(attempts.get(1), "loadwise.retry_reason"));
        assertEquals("200", attr(retried, "http.response.status_code"));
        String sawRetry = heads.stream().filter(h -> h.contains(hex(retried.getTraceId()))).findFirst().orElseThrow();
        assertEquals("traceparent: 00-" + hex(retried.getTraceId()) + "-" + hex(attempts.get(1).getSpanId()) + "-"
                + flags(attempts.get(1)),
                line(sawRetry, "traceparent"), "the node that answered sees its own attempt's span as parent");
    }

    /** A request that does not end normally carries its termination state; a normal end has none (see above). */
    @Test
    void aFailedRequestsServerSpanCarriesItsTerminationState() throws Exception {
        start(null);
        Tracing.start(tracing(1.0));
        String response = send("dead", "GET /d HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertTrue(response.startsWith("HTTP/1.1 5"), response);
        Span server = only(awaitSpans(1), Span.SpanKind.SPAN_KIND_SERVER);
        String termination = attr(server, "loadwise.termination");
        assertTrue(termination != null && termination.length() == 2 && !termination.equals("--"), termination);
        assertEquals(Status.StatusCode.STATUS_CODE_ERROR, server.getStatus().getCode());
    }

    @Test
    void aMalformedTraceparentIsReplacedAndItsStateDroppedWithTracingOnAndOff() throws Exception {
        start(null);
        String bad = "GET / HTTP/1.1\r\nHost: x\r\ntraceparent: 00-" + PARENT_TRACE.toUpperCase(Locale.ROOT) + "-"
                + PARENT_SPAN + "-01\r\ntracestate: congo=t61rcWkgMzE\r\nConnection: close\r\n\r\n";
        send("shop", bad); // tracing off
        String off = heads.poll(10, TimeUnit.SECONDS);
        String replaced = line(off, "traceparent");
        assertTrue(replaced.matches("traceparent: 00-[0-9a-f]{32}-[0-9a-f]{16}-00"), off);
        assertFalse(replaced.toLowerCase(Locale.ROOT).contains(PARENT_TRACE), off);
        assertNull(line(off, "tracestate"), off);
        String good = "GET / HTTP/1.1\r\nHost: x\r\ntraceparent: 00-" + PARENT_TRACE + "-" + PARENT_SPAN
                + "-01\r\ntracestate: congo=t61rcWkgMzE\r\nConnection: close\r\n\r\n";
        send("shop", good);
        String passed = heads.poll(10, TimeUnit.SECONDS);
        assertEquals("traceparent: 00-" + PARENT_TRACE + "-" + PARENT_SPAN + "-01", line(passed, "traceparent"),
                "tracing off: a valid header passes byte for byte");
        assertEquals("tracestate: congo=t61rcWkgMzE", line(passed, "tracestate"));

        Tracing.start(tracing(1.0));
        send("shop", bad.replace("-01\r\n", "-01\r\ntraceparent: 00-" + PARENT_TRACE + "-" + PARENT_SPAN + "-01\r\n"));
        String on = heads.poll(10, TimeUnit.SECONDS);
        List<Span> spans = awaitSpans(2);
        Span server = only(spans, Span.SpanKind.SPAN_KIND_SERVER);
        Span client = only(spans, Span.SpanKind.SPAN_KIND_CLIENT);
        assertTrue(server.getParentSpanId().isEmpty(), "a malformed parent starts a new trace");
        assertNotEquals(PARENT_TRACE, hex(server.getTraceId()));
        assertEquals("traceparent: 00-" + hex(server.getTraceId()) + "-" + hex(client.getSpanId()) + "-" + flags(client),
                line(on, "traceparent"), on);
        assertEquals(1, on.split("(?i)\r\ntraceparent:").length - 1, "one traceparent: " + on);
        assertNull(line(on, "tracestate"), on);
    }

    @Test
    void anUnreachableCollectorCostsACounter() throws Exception {
        start(null);
        Tracing.start(new TracingConfig("http://" + Configs.deadAddress(), 1.0));
        long failedBefore = Tracing.spansFailed();
        String response = send("shop", "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertTrue(response.startsWith("HTTP/1.1 200 "), "the request is served all the same: " + response);
        Await.until("the failed export counted", () -> {
            Tracing.flush(Duration.ofSeconds(1));
            return Tracing.spansFailed() >= failedBefore + 2;
        });
        // a collector that takes the connection and never answers: the exporter waits out its 10 s timeout, more
        // spans end than the queue holds, and those are dropped and counted, not kept
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Tracing.start(new TracingConfig("http://127.0.0.1:" + silent.getLocalPort(), 1.0));
            long droppedBefore = Tracing.spansDropped();
            for (int i = 0; i < Tracing.QUEUE / 2 + 300 && Tracing.spansDropped() == droppedBefore; i++) {
                send("shop", "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
                heads.clear();
            }
            assertTrue(Tracing.spansDropped() > droppedBefore, "dropped: " + Tracing.spansDropped());
        }
    }

    // ---- helpers ----------------------------------------------------------------------------------------

    private List<Span> awaitSpans(int n) {
        Await.until(n + " spans at the receiver", () -> {
            Tracing.flush(Duration.ofSeconds(1));
            return receiver.spans.size() >= n;
        });
        return List.copyOf(receiver.spans);
    }

    private static Span only(List<Span> spans, Span.SpanKind kind) {
        List<Span> of = spans.stream().filter(s -> s.getKind() == kind).toList();
        assertEquals(1, of.size(), kind + " in " + spans);
        return of.get(0);
    }

    private static String attr(Span span, String key) {
        for (KeyValue kv : span.getAttributesList()) {
            if (kv.getKey().equals(key)) {
                var v = kv.getValue();
                return switch (v.getValueCase()) {
                    case INT_VALUE -> Long.toString(v.getIntValue());
                    case DOUBLE_VALUE -> Double.toString(v.getDoubleValue());
                    case BOOL_VALUE -> Boolean.toString(v.getBoolValue());
                    default -> v.getStringValue();
                };
            }
        }
        return null;
    }

    /** The span's W3C trace flags as its traceparent writes them (sampled; random trace id, level 2, when new). */
    private static String flags(Span span) {
        return String.format("%02x", span.getFlags() & 0xff);
    }

    private static String hex(ByteString bytes) {
        return HexFormat.of().formatHex(bytes.toByteArray());
    }

    /** The whole header line named {@code name} in a raw request head, as the node got it, or null. */
    private static String line(String head, String name) {
        for (String l : head.split("\r\n")) {
            if (l.regionMatches(true, 0, name + ":", 0, name.length() + 1)) {
                return l;
            }
        }
        return null;
    }

    private String send(String cluster, String request) throws IOException {
        InetSocketAddress address = dispatcher.boundAddress(cluster);
        try (Socket s = new Socket(address.getAddress(), address.getPort())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    /**
     * A node on a plain server socket: keeps each proxied request head exactly as received, then answers 200 and
     * closes, or ({@code resets}) closes without answering. Anything not proxied (no X-Forwarded-For) gets a 404.
     */
    private final class RawNode implements AutoCloseable {

        private final ServerSocket socket;

        RawNode(boolean resets) throws IOException {
            socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread t = new Thread(() -> {
                while (!socket.isClosed()) {
                    try {
                        Socket c = socket.accept();
                        Thread server = new Thread(() -> serve(c, resets), "raw-node-connection");
                        server.setDaemon(true);
                        server.start();
                    } catch (IOException e) {
                        return;
                    }
                }
            }, "raw-node");
            t.setDaemon(true);
            t.start();
        }

        String address() {
            return "127.0.0.1:" + socket.getLocalPort();
        }

        private void serve(Socket c, boolean resets) {
            try (c) {
                InputStream in = c.getInputStream();
                ByteArrayOutputStream head = new ByteArrayOutputStream();
                while (true) {
                    int b = in.read();
                    if (b < 0) {
                        return;
                    }
                    head.write(b);
                    byte[] h = head.toByteArray();
                    int n = h.length;
                    if (n >= 4 && h[n - 4] == '\r' && h[n - 3] == '\n' && h[n - 2] == '\r' && h[n - 1] == '\n') {
                        break;
                    }
                }
                String text = head.toString(StandardCharsets.ISO_8859_1);
                boolean proxied = text.toLowerCase(Locale.ROOT).contains("\r\nx-forwarded-for:");
                if (proxied && resets) {
                    return;
                }
                if (proxied) {
                    heads.add(text);
                }
                String answer = proxied ? "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
                        : "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
                c.getOutputStream().write(answer.getBytes(StandardCharsets.ISO_8859_1));
            } catch (IOException e) {
                // the connection went
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
