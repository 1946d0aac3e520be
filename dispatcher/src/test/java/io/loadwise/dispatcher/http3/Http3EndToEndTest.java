package io.loadwise.dispatcher.http3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.Http3Config;
import io.loadwise.dispatcher.config.ListenerConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.config.RouteConfig;
import io.loadwise.dispatcher.config.RouteMatch;
import io.loadwise.dispatcher.config.TlsConfig;
import io.loadwise.dispatcher.http.HttpListener;
import io.loadwise.dispatcher.http.HttpProxyServer;
import io.loadwise.dispatcher.http.ListenerSettings;
import io.loadwise.dispatcher.http2.Http2Frontend;
import io.loadwise.dispatcher.metrics.QuicCounts;
import io.loadwise.dispatcher.metrics.TrafficCounters;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.route.RouteTableStage;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.testsupport.TestPki;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTP/3 end to end with an independent client (Python's aioquic, {@link Aioquic}): a listening cluster and a
 * routed listener, each with {@code http3} on its TLS port, in front of a real node that records the bytes it reads.
 */
class Http3EndToEndTest {

    private static final PolicyRegistry POLICIES = PolicyRegistry.load();
    static final int MAX_STREAMS = 20;

    @TempDir
    static Path dir;
    static TestPki pki;
    static RecordingNode node;
    static Transport transport;
    static HttpProxyServer cluster;
    static HttpListener routed;
    /** Room for many streams at once: the reset flood's target. */
    static HttpProxyServer roomy;
    static int port;

    @BeforeAll
    static void setUp() throws Exception {
        Aioquic.python(); // installs aioquic in target/ once, or skips when python3 is absent
        pki = new TestPki(dir);
        TestPki.Issued localhost = pki.issue("localhost", "localhost", "localhost");
        TlsConfig tls = new TlsConfig(localhost.certificate().toString(), localhost.key().toString(), null, null,
                null, null, null, null, null);
        node = new RecordingNode();
        transport = new Transport(1);
        ClusterConfig config = ClusterConfig.builder().name("web").mode(Mode.HTTP).listen("127.0.0.1:0")
                .policy("round-robin").connectTimeoutMs(1_000).unhealthyRetryMs(60_000).tls(tls)
                .http3(new Http3Config(true, MAX_STREAMS, null, null, null, null))
                .nodes(List.of(new NodeConfig("n1", node.address(), null, null, null, null))).build();
        cluster = new HttpProxyServer(new VirtualCluster(config, POLICIES, System::nanoTime), transport, null,
                Http2Frontend::new, Http3Frontend::new);
        port = cluster.start().getPort();
        ListenerConfig listener = new ListenerConfig("edge", "127.0.0.1:0", tls, null, List.of(
                new RouteConfig("api", new RouteMatch(null, null, "/api/", null, null, null, null), "web", null, null,
                        null, null, null, null, null)), null, null, null, null, null, null, null,
                new Http3Config(true, null, null, 600, null, null));
        routed = new HttpListener(ListenerSettings.of(listener), new TrafficCounters(),
                new RouteTableStage(listener, Map.of("web", cluster), new HashMap<>(), new HashMap<>(),
                        System::nanoTime), null, transport, null, Http2Frontend::new, Http3Frontend::new);
        routed.start();
        roomy = new HttpProxyServer(new VirtualCluster(config.toBuilder().name("roomy")
                .http3(new Http3Config(true, 1_000, null, null, null, null)).build(), POLICIES, System::nanoTime),
                transport, null, Http2Frontend::new, Http3Frontend::new);
        roomy.start();
    }

    @AfterAll
    static void tearDown() {
        if (routed != null) {
            routed.close();
        }
        if (cluster != null) {
            cluster.close();
        }
        if (roomy != null) {
            roomy.close();
        }
        if (transport != null) {
            transport.close();
        }
        if (node != null) {
            node.close();
        }
    }

    static Map<String, Object> job(int port, List<Map<String, Object>> requests) {
        Map<String, Object> job = new HashMap<>();
        job.put("host", "127.0.0.1");
        job.put("port", port);
        job.put("serverName", "localhost");
        job.put("cafile", pki.caCert.toString());
        job.put("timeout", 15);
        job.put("requests", requests);
        return job;
    }

    static Map<String, Object> get(String path) {
        return new HashMap<>(Map.of("method", "GET", "path", path));
    }

    private static String header(JsonNode response, String name) {
        for (JsonNode field : response.path("headers")) {
            if (field.get(0).asText().equals(name)) {
                return field.get(1).asText();
            }
        }
        return null;
    }

    @Test
    void getGoesThroughToTheNodeAsHttp11() throws Exception {
        JsonNode result = Aioquic.run(job(port, List.of(get("/hello?x=1"))));
        JsonNode response = result.path("responses").path(0);
        assertEquals(200, response.path("status").asInt(), result.toString());
        assertEquals("GET /hello?x=1\n", response.path("body").asText());
        assertEquals("text/plain", header(response, "content-type"));
        assertEquals(null, header(response, "connection"), "connection-specific fields stay out of HTTP/3");
        assertEquals("h3=\":" + port + "\"; ma=86400", header(response, "alt-svc"), "the node's own is replaced");
        String seen = node.received();
        int at = seen.indexOf("GET /hello?x=1 HTTP/1.1\r\n");
        assertTrue(at >= 0, seen);
        String head = seen.substring(at, seen.indexOf("\r\n\r\n", at) + 4);
        assertTrue(head.contains("\r\nhost: localhost:" + port + "\r\n"), head);
        assertTrue(head.toLowerCase().contains("\r\nx-forwarded-proto: https\r\n"), head);
        assertTrue(head.toLowerCase().contains("\r\nx-forwarded-for: 127.0.0.1\r\n"), head);
        assertFalse(head.contains("content-length") || head.contains("transfer-encoding"), "a GET has no body: " + head);
    }

    @Test
    void postBodyReachesTheNodeByteForByte() throws Exception {
        Map<String, Object> post = new HashMap<>(Map.of("method", "POST", "path", "/upload", "body", "hello world",
                "headers", List.of(List.of("content-length", "11"), List.of("content-type", "text/plain"))));
        JsonNode result = Aioquic.run(job(port, List.of(post)));
        JsonNode response = result.path("responses").path(0);
        assertEquals(200, response.path("status").asInt(), result.toString());
        assertEquals("POST /upload\nhello world", response.path("body").asText());
        String seen = node.received();
        int at = seen.indexOf("POST /upload HTTP/1.1\r\n");
        assertTrue(at >= 0, seen);
        String request = seen.substring(at, seen.indexOf("\r\n\r\n", at) + 4 + 11);
        assertTrue(request.contains("\r\ncontent-length: 11\r\n"), request);
        assertTrue(request.endsWith("\r\n\r\nhello world"), request);
    }

    @Test
    void postWithoutContentLengthGoesChunked() throws Exception {
        Map<String, Object> post = new HashMap<>(Map.of("method", "POST", "path", "/chunked", "body", "abc"));
        JsonNode result = Aioquic.run(job(port, List.of(post)));
        JsonNode response = result.path("responses").path(0);
        assertEquals(200, response.path("status").asInt(), result.toString());
        assertEquals("POST /chunked\nabc", response.path("body").asText());
        String seen = node.received();
        int at = seen.indexOf("POST /chunked HTTP/1.1\r\n");
        String request = seen.substring(at, seen.indexOf("\r\n0\r\n\r\n", at) + 7);
        assertTrue(request.contains("\r\ntransfer-encoding: chunked\r\n"), request);
        assertTrue(request.endsWith("\r\n\r\n3\r\nabc\r\n0\r\n\r\n"), request);
    }

    private static TestPki.Result curl(int port, String path, String version) throws IOException {
        return TestPki.exec(List.of("curl", "-sS", "-v", "--max-time", "10", "--cacert", pki.caCert.toString(),
                "--resolve", "localhost:" + port + ":127.0.0.1", version, "https://localhost:" + port + path), null, 20);
    }

    @Test
    void http11AndH2AnswersAdvertiseHttp3ByAltSvc() throws IOException {
        for (String version : List.of("--http1.1", "--http2")) {
            TestPki.Result result = curl(port, "/alt", version);
            assertEquals(0, result.exit(), result.output());
            // the node's own Alt-Svc (h2=":1") names a service the client does not reach: replaced
            assertTrue(result.output().contains("< alt-svc: h3=\":" + port + "\"; ma=86400\r\n")
                    || result.output().contains("< alt-svc: h3=\":" + port + "\"; ma=86400\n"), result.output());
            assertFalse(result.output().contains("h2=\":1\""), result.output());
        }
        int routedPort = routed.boundAddress().getPort();
        TestPki.Result routedAnswer = curl(routedPort, "/no-route", "--http2");
        assertTrue(routedAnswer.output().contains("< HTTP/2 404"), routedAnswer.output());
        assertTrue(routedAnswer.output().contains("< alt-svc: h3=\":" + routedPort + "\"; ma=600"),
                "the proxy's own answers too, with the listener's ma: " + routedAnswer.output());
    }

    @Test
    void routedListenerServesItsRoutesOverHttp3() throws Exception {
        int routedPort = routed.boundAddress().getPort();
        JsonNode result = Aioquic.run(job(routedPort, List.of(get("/api/items"), get("/elsewhere"))));
        assertEquals(200, result.path("responses").path(0).path("status").asInt(), result.toString());
        assertEquals("GET /api/items\n", result.path("responses").path(0).path("body").asText());
        assertEquals(404, result.path("responses").path(1).path("status").asInt(), result.toString());
        assertEquals(routedPort, routed.http3().boundAddress().getPort(), "UDP on the listener's own TCP port");
    }

    @Test
    void manyConcurrentStreamsOnOneConnection() throws Exception {
        List<Map<String, Object>> requests = new ArrayList<>();
        for (int i = 0; i < MAX_STREAMS; i++) {
            requests.add(get("/many/" + i));
        }
        JsonNode result = Aioquic.run(job(port, requests));
        assertEquals(MAX_STREAMS, result.path("responses").size(), result.toString());
        for (int i = 0; i < MAX_STREAMS; i++) {
            JsonNode response = result.path("responses").path(i);
            assertEquals(200, response.path("status").asInt(), response.toString());
            assertEquals("GET /many/" + i + "\n", response.path("body").asText());
        }
    }

    @Test
    void streamsBeyondTheLimitCloseTheConnection() throws Exception {
        List<Map<String, Object>> requests = new ArrayList<>();
        for (int i = 0; i < MAX_STREAMS * 3; i++) {
            requests.add(get("/over/" + i));
        }
        Map<String, Object> job = job(port, requests);
        job.put("violateStreamLimit", true);
        JsonNode result = Aioquic.run(job);
        // QUIC's STREAM_LIMIT_ERROR (0x4, RFC 9000 §19.11): a stream id beyond initial_max_streams_bidi
        assertEquals(0x4, result.path("terminated").path("errorCode").asInt(-1), result.toString());
    }

    @Test
    void anOversizedHeaderBlockNeverReachesTheNode() throws Exception {
        Map<String, Object> big = get("/big-headers");
        big.put("headers", List.of(List.of("x-big", "b".repeat(20_000))));
        JsonNode result = Aioquic.run(job(port, List.of(big)));
        JsonNode response = result.path("responses").path(0);
        // over SETTINGS_MAX_FIELD_SECTION_SIZE (maxHeaderBytes, 16 KiB): the stream is reset with H3_EXCESSIVE_LOAD
        assertEquals(0x107, response.path("reset").asInt(-1), result.toString());
        assertFalse(response.has("status"), result.toString());
        assertFalse(node.received().contains("/big-headers"), "refused before any node");
    }

    @Test
    void everyConnectionIsValidatedByARetryToken() throws Exception {
        QuicCounts before = cluster.listener().http3().counts();
        JsonNode result = Aioquic.run(job(port, List.of(get("/retry"))));
        assertEquals(200, result.path("responses").path(0).path("status").asInt(), result.toString());
        assertEquals(1, result.path("retry").asInt(), "the client was sent one Retry: " + result);
        QuicCounts after = cluster.listener().http3().counts();
        assertTrue(after.retries() > before.retries(), after.toString());
    }

    @Test
    void aForgedTokenGetsNoConnection() throws Exception {
        QuicCounts before = cluster.listener().http3().counts();
        Map<String, Object> job = job(port, List.of(get("/forged")));
        job.put("token", "00".repeat(32) + "7fffffffffffffff" + "0102030405060708");
        job.put("timeout", 3);
        JsonNode result = Aioquic.run(job);
        assertNotNull(result.get("error"), "no connection with a forged token: " + result);
        QuicCounts after = cluster.listener().http3().counts();
        assertTrue(after.invalidTokens() > before.invalidTokens(), after.toString());
        assertFalse(node.received().contains("/forged"));
    }

    @Test
    void aFloodOfConnectionIdsClosesTheConnection() throws Exception {
        Map<String, Object> job = job(port, List.of());
        job.put("connectionIds", 8);
        job.put("timeout", 5);
        JsonNode result = Aioquic.run(job);
        // CONNECTION_ID_LIMIT_ERROR (0x9, RFC 9000 §20.1): more than active_connection_id_limit IDs issued
        assertEquals(0x9, result.path("terminated").path("errorCode").asInt(-1), result.toString());
    }

    @Test
    void aFloodOfResetStreamsClosesTheConnectionWithExcessiveLoad() throws Exception {
        int port = roomy.listener().boundAddress().getPort();
        Map<String, Object> job = job(port, List.of());
        job.put("resetStreams", Http3Frontend.MAX_ABANDONED_STREAMS + 50);
        job.put("timeout", 10);
        JsonNode result = Aioquic.run(job);
        assertEquals(0x107, result.path("terminated").path("errorCode").asInt(-1), result.toString() + " "
                + roomy.listener().http3().counts() + " node saw /reset/: " + node.received().contains("/reset/"));
        assertEquals(1, roomy.listener().http3().counts().excessiveLoad());
        assertFalse(node.received().contains("/reset/"), "no reset request reached the node");
    }

    @Test
    void aSecondConnectionFromTheSameAddressIsRefusedAndCloseEndsTheFirst() throws Exception {
        ClusterConfig strictConfig = ClusterConfig.builder().name("strict").mode(Mode.HTTP).listen("127.0.0.1:0")
                .policy("round-robin").tls(cluster.listener().settings().tls())
                .http3(new Http3Config(true, null, null, null, 1, null))
                .nodes(List.of(new NodeConfig("n1", node.address(), null, null, null, null))).build();
        HttpProxyServer strict = new HttpProxyServer(new VirtualCluster(strictConfig, POLICIES, System::nanoTime),
                transport, null, Http2Frontend::new, Http3Frontend::new);
        int strictPort = strict.start().getPort();
        try {
            Map<String, Object> holder = job(strictPort, List.of());
            holder.put("timeout", 30); // holds its connection until the server ends it
            java.util.concurrent.CompletableFuture<JsonNode> first = java.util.concurrent.CompletableFuture
                    .supplyAsync(() -> {
                        try {
                            return Aioquic.run(holder);
                        } catch (Exception e) {
                            throw new java.util.concurrent.CompletionException(e);
                        }
                    });
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
            while (strict.listener().http3().counts().open() < 1 && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(10_000_000); // polled until the deadline
            }
            assertEquals(1, strict.listener().http3().counts().open(), "the first client is connected");
            Map<String, Object> second = job(strictPort, List.of(get("/second")));
            second.put("timeout", 3);
            JsonNode refused = Aioquic.run(second);
            assertTrue(refused.has("error") || refused.path("terminated").path("errorCode").asInt() == 0x2,
                    refused.toString());
            // each Initial the client sends again makes one more refused attempt: at least one
            assertTrue(strict.listener().http3().counts().connectionsRefused() >= 1);
            assertFalse(node.received().contains("/second"));
            strict.close();
            // the first connection is ended by the server with H3_NO_ERROR, not left to its idle timeout
            JsonNode ended = first.get(30, java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(0x100, ended.path("terminated").path("errorCode").asInt(-1), ended.toString());
        } finally {
            strict.close();
        }
    }

    @Test
    void aReloadKeepsTheQuicSideWhenHttp3StaysAndRebindsTheSamePortWhenItChanges() throws Exception {
        ClusterConfig base = ClusterConfig.builder().name("reload").mode(Mode.HTTP).listen("127.0.0.1:0")
                .policy("round-robin").tls(cluster.listener().settings().tls())
                .http3(new Http3Config(true, null, null, null, null, null))
                .nodes(List.of(new NodeConfig("n1", node.address(), null, null, null, null))).build();
        HttpProxyServer first = server(base);
        int reloadPort = first.start().getPort();
        HttpProxyServer last = first;
        try {
            io.loadwise.dispatcher.http.Http3Support quic = first.listener().http3();
            // the cluster changes (a timeout), its http3 does not: the QUIC side carries on under the new listener
            HttpProxyServer second = server(base.toBuilder().connectTimeoutMs(2_000).build());
            second.takeOver(first);
            first.drain();
            last = second;
            org.junit.jupiter.api.Assertions.assertSame(quic, second.listener().http3());
            JsonNode kept = Aioquic.run(job(reloadPort, List.of(get("/after-reload"))));
            assertEquals("GET /after-reload\n", kept.path("responses").path(0).path("body").asText(), kept.toString());
            // http3 changes: a new QUIC side, on the same UDP port once the old one let it go
            HttpProxyServer third = server(base.toBuilder().connectTimeoutMs(2_000)
                    .http3(new Http3Config(true, 7, null, null, null, null)).build());
            third.takeOver(second);
            second.drain();
            last = third;
            org.junit.jupiter.api.Assertions.assertNotSame(quic, third.listener().http3());
            assertEquals(reloadPort, third.listener().http3().boundAddress().getPort());
            JsonNode renewed = Aioquic.run(job(reloadPort, List.of(get("/after-change"))));
            assertEquals(200, renewed.path("responses").path(0).path("status").asInt(), renewed.toString());
        } finally {
            last.close();
        }
    }

    @Test
    void closeLetsTheStreamsInFlightFinishThenEndsTheConnection() throws Exception {
        HttpProxyServer server = server(ClusterConfig.builder().name("draining").mode(Mode.HTTP)
                .listen("127.0.0.1:0").policy("round-robin").tls(cluster.listener().settings().tls())
                .http3(new Http3Config(true, null, null, null, null, null))
                .nodes(List.of(new NodeConfig("n1", node.address(), null, null, null, null))).build());
        int drainPort = server.start().getPort();
        try {
            int before = node.inFlight.get();
            java.util.concurrent.CompletableFuture<JsonNode> slow = java.util.concurrent.CompletableFuture
                    .supplyAsync(() -> {
                        try {
                            Map<String, Object> job = job(drainPort, List.of(get("/slow/1500")));
                            job.put("awaitClose", true);
                            return Aioquic.run(job);
                        } catch (Exception e) {
                            throw new java.util.concurrent.CompletionException(e);
                        }
                    });
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
            while (node.inFlight.get() <= before && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(5_000_000); // polled until the deadline
            }
            assertTrue(node.inFlight.get() > before, "the request reached the node");
            server.drain(); // a reload that removes the listener: GOAWAY, not a cut
            JsonNode done = slow.get(30, java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(200, done.path("responses").path(0).path("status").asInt(), done.toString());
            assertEquals("GET /slow/1500\n", done.path("responses").path(0).path("body").asText(), done.toString());
            assertEquals(0x100, done.path("terminated").path("errorCode").asInt(-1), "then H3_NO_ERROR: " + done);
            assertEquals(0, server.listener().http3() == null ? 0 : server.listener().http3().counts().open());
        } finally {
            server.close();
        }
    }

    private static HttpProxyServer server(ClusterConfig config) {
        return new HttpProxyServer(new VirtualCluster(config, POLICIES, System::nanoTime), transport, null,
                Http2Frontend::new, Http3Frontend::new);
    }

    @Test
    void aCertificateReloadReachesTheNextQuicHandshake() throws Exception {
        TestPki.Issued files = pki.issue("reloadable", "before.example", "localhost");
        TlsConfig tls = new TlsConfig(files.certificate().toString(), files.key().toString(), null, null, null, null,
                null, null, null);
        HttpProxyServer server = server(ClusterConfig.builder().name("certs").mode(Mode.HTTP).listen("127.0.0.1:0")
                .policy("round-robin").tls(tls).http3(new Http3Config(true, null, null, null, null, null))
                .nodes(List.of(new NodeConfig("n1", node.address(), null, null, null, null))).build());
        int certsPort = server.start().getPort();
        try {
            JsonNode before = Aioquic.run(job(certsPort, List.of(get("/before"))));
            assertEquals("CN=before.example", before.path("peerCertificate").asText(), before.toString());
            pki.issue("reloadable", "after.example", "localhost"); // the same files, rewritten
            server.tls().checkFiles(); // what the reload timer does every reloadCheckMs
            JsonNode after = Aioquic.run(job(certsPort, List.of(get("/after"))));
            assertEquals("CN=after.example", after.path("peerCertificate").asText(), after.toString());
            assertEquals(200, after.path("responses").path(0).path("status").asInt(), after.toString());
        } finally {
            server.close();
        }
    }

    @Test
    void noRequestCanArriveAsZeroRtt() throws Exception {
        Map<String, Object> post = new HashMap<>(Map.of("method", "POST", "path", "/replayable", "body", "pay",
                "headers", List.of(List.of("content-length", "3"))));
        Map<String, Object> job = job(port, List.of(post));
        job.put("replay", true);
        JsonNode result = Aioquic.run(job);
        assertEquals(200, result.path("responses").path(0).path("status").asInt(), result.toString());
        // session tickets allow no early data, so the resumed connection sends its POST only after the handshake
        for (JsonNode maxEarlyData : result.path("tickets")) {
            assertTrue(maxEarlyData.isNull() || maxEarlyData.asLong() == 0, result.toString());
        }
        // a resumed session works (one round trip saved), without early data
        JsonNode replay = result.path("replay");
        assertTrue(replay.path("resumed").asBoolean(), result.toString());
        assertFalse(replay.path("earlyDataAccepted").asBoolean(), result.toString());
        assertEquals(200, replay.path("responses").path(0).path("status").asInt(), result.toString());
    }

    @Test
    void anIdleQuicConnectionIsClosedAfterTheListenersIdleTimeout() throws Exception {
        HttpProxyServer idle = server(ClusterConfig.builder().name("idle").mode(Mode.HTTP).listen("127.0.0.1:0")
                .policy("round-robin").tls(cluster.listener().settings().tls()).idleTimeoutMs(300)
                .http3(new Http3Config(true, null, null, null, null, null))
                .nodes(List.of(new NodeConfig("n1", node.address(), null, null, null, null))).build());
        int idlePort = idle.start().getPort();
        try {
            Map<String, Object> job = job(idlePort, List.of());
            job.put("timeout", 20); // the client would hold its connection this long
            long start = System.nanoTime();
            JsonNode result = Aioquic.run(job);
            long seconds = java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
            assertTrue(seconds < 15, "ended by the 300 ms idle timeout, not the client's 20 s: " + result);
            assertEquals(1, idle.listener().http3().counts().connections());
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
            while (idle.listener().http3().counts().open() > 0 && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(10_000_000); // polled until the deadline
            }
            assertEquals(0, idle.listener().http3().counts().open(), "the server closed it too");
        } finally {
            idle.close();
        }
    }
}
