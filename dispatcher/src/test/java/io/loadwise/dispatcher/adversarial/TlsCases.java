package io.loadwise.dispatcher.adversarial;

import static io.loadwise.dispatcher.adversarial.SlowPeerCases.assertWithin;
import static io.loadwise.dispatcher.adversarial.Trickle.millisSince;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.loadwise.dispatcher.config.TlsConfig;
import io.loadwise.testsupport.TestPki;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import org.slf4j.LoggerFactory;

/**
 * TLS at the edge: what a client that does not (or cannot) complete a proper handshake gets from a TLS
 * listener. Real sockets and real clients (the {@code openssl} command line, the JDK's {@link SSLEngine});
 * each case also checks that nothing reached the node and that the dispatcher logged the refusal at debug
 * in one line, with no stack trace and nothing at warn or above.
 */
final class TlsCases {

    static final String GROUP = "tls";
    /** The exact answer to clear-text HTTP on a TLS port ({@code PlainTextRefusal}). */
    static final String PLAIN_HTTP_REFUSED = "HTTP/1.1 400 Bad Request\r\n"
            + "Content-Type: text/plain; charset=utf-8\r\n"
            + "Connection: close\r\n"
            + "Content-Length: 48\r\n\r\n"
            + "This port speaks HTTPS: use an https:// URL.\r\n\r\n";

    private static Pki pki;

    private TlsCases() {
    }

    static List<JavaCase> all() {
        return List.of(
                new JavaCase(GROUP, "clear-http-to-the-tls-port-gets-a-plain-400", "tls", TlsCases::clearHttp),
                new JavaCase(GROUP, "a-first-byte-that-is-no-tls-record-is-closed-silently", "tls", TlsCases::notTls),
                new JavaCase(GROUP, "tls-1.0-and-1.1-only-clients-are-refused", "RFC 8996", TlsCases::oldVersions),
                new JavaCase(GROUP, "a-handshake-stalled-in-the-record-header-is-closed-at-the-handshake-timeout",
                        "tls", c -> stalled(c, false)),
                new JavaCase(GROUP, "a-handshake-stalled-after-the-client-hello-is-closed-at-the-handshake-timeout",
                        "tls", c -> stalled(c, true)),
                new JavaCase(GROUP, "sni-naming-an-unknown-host-gets-the-default-certificate", "RFC 6066",
                        TlsCases::unknownServerName),
                new JavaCase(GROUP, "an-oversized-client-hello-is-refused-before-it-is-buffered", "tls",
                        TlsCases::oversizedClientHello),
                new JavaCase(GROUP, "a-request-over-tls-logs-its-version-sni-and-alpn", "issue 33",
                        TlsCases::loggedTls));
    }

    /** One CA and two certificates for the whole run (openssl takes ~100 ms per key). */
    private record Pki(TestPki ca, TestPki.Issued main, TestPki.Issued shop) {
    }

    private static synchronized Pki pki() throws IOException {
        if (pki == null) {
            Path dir = Files.createTempDirectory("loadwise-adversarial-tls");
            dir.toFile().deleteOnExit();
            TestPki ca = new TestPki(dir);
            pki = new Pki(ca, ca.issue("default", "default.localhost", "localhost"),
                    ca.issue("shop", "shop.example", "shop.example"));
            for (Path file : List.of(ca.caCert, pki.main.certificate(), pki.main.key(), pki.shop.certificate(),
                    pki.shop.key())) {
                file.toFile().deleteOnExit();
            }
        }
        return pki;
    }

    /** A TLS listener (default certificate, one SNI certificate for shop.example) over {@code node}. */
    private static ProxyUnderTest tlsProxy(CaseContext ctx, RawNode node, ClusterOverrides overrides)
            throws IOException {
        Pki p = pki();
        TlsConfig tls = new TlsConfig(p.main.certificate().toString(), p.main.key().toString(), null, null, null,
                null, null, List.of(new TlsConfig.SniCertificate(List.of("shop.example"),
                        p.shop.certificate().toString(), p.shop.key().toString(), null)), null);
        return ctx.proxy(overrides.with(b -> b.tls(tls)), node);
    }

    private static Socket socket(CaseContext ctx, ProxyUnderTest proxy, int readTimeoutMs) throws IOException {
        Socket socket = ctx.register(new Socket(proxy.address().getAddress(), proxy.address().getPort()));
        socket.setSoTimeout(readTimeoutMs);
        return socket;
    }

    /** Everything the proxy sends until it closes; fails if it does not close within the read timeout. */
    private static byte[] untilClosed(Socket socket) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[4096];
        try {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                all.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the proxy did not close the connection; it sent " + all.size() + " bytes");
        } catch (IOException e) {
            // a reset after the proxy closed with unread input: closed all the same
        }
        return all.toByteArray();
    }

    private static void clearHttp(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        LogCapture log = ctx.register(new LogCapture());
        Socket socket = socket(ctx, tlsProxy(ctx, node, new ClusterOverrides()), 3_000);
        socket.getOutputStream().write("GET /plain HTTP/1.1\r\nHost: localhost\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII));
        assertEquals(PLAIN_HTTP_REFUSED, new String(untilClosed(socket), StandardCharsets.US_ASCII));
        assertEquals(0, node.requests().size(), "nothing reaches the node");
        log.assertOneDebugLine("spoke clear-text HTTP to the TLS port; refused");
    }

    private static void notTls(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        LogCapture log = ctx.register(new LogCapture());
        Socket socket = socket(ctx, tlsProxy(ctx, node, new ClusterOverrides()), 3_000);
        socket.getOutputStream().write(new byte[] {0x00, 0x01, 0x02, 0x03, 0x04, 0x05});
        assertArrayEquals(new byte[0], untilClosed(socket));
        assertEquals(0, node.requests().size(), "nothing reaches the node");
        log.assertOneDebugLine("sent no TLS handshake (first byte 0); closed");
    }

    private static void oldVersions(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        ProxyUnderTest proxy = tlsProxy(ctx, node, new ClusterOverrides());
        for (String version : new String[] {"-tls1", "-tls1_1"}) {
            LogCapture log = ctx.register(new LogCapture());
            // SECLEVEL=0 lets this OpenSSL offer the old versions at all: the refusal must be the server's.
            TestPki.Result old = TestPki.exec(List.of("openssl", "s_client", "-connect", "127.0.0.1:"
                    + proxy.address().getPort(), version, "-cipher", "DEFAULT@SECLEVEL=0"), "", 15);
            assertNotEquals(0, old.exit(), old.output());
            assertTrue(old.output().contains("no peer certificate available"), old.output());
            log.assertOneDebugLine("TLS");
            log.close();
        }
        assertEquals(0, node.requests().size(), "nothing reaches the node");
    }

    /**
     * A client that starts a handshake and stops: in the first record's header (the server name is not
     * known yet), or after a whole ClientHello (the server answered, waits for the client's Finished).
     * Both end at the handshake timeout, the cluster's {@code headerTimeoutMs}, here 600 ms.
     */
    private static void stalled(CaseContext ctx, boolean afterClientHello) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        LogCapture log = ctx.register(new LogCapture());
        Socket socket = socket(ctx, tlsProxy(ctx, node, new ClusterOverrides().set("headerTimeoutMs", 600)), 5_000);
        OutputStream out = socket.getOutputStream();
        long start = System.nanoTime();
        if (afterClientHello) {
            out.write(clientHello("localhost"));
        } else {
            out.write(new byte[] {0x16, 0x03, 0x01});
        }
        out.flush();
        byte[] answer = untilClosed(socket);
        assertWithin(millisSince(start), 500, 2_500, "closed");
        if (afterClientHello) {
            assertTrue(answer.length > 0 && answer[0] == 0x16, "the server answered the ClientHello with a "
                    + "handshake record, then closed when the client stalled");
        } else {
            assertArrayEquals(new byte[0], answer, "nothing is sent to a client that never finished its hello");
        }
        assertEquals(0, node.requests().size(), "nothing reaches the node");
        log.assertOneDebugLine("TLS");
    }

    private static void unknownServerName(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        ProxyUnderTest proxy = tlsProxy(ctx, node, new ClusterOverrides());
        for (String[] nameAndSubject : new String[][] {{"unknown.example", "subject=CN = default.localhost"},
                {"shop.example", "subject=CN = shop.example"}, {"SHOP.example", "subject=CN = shop.example"},
                {"a.shop.example", "subject=CN = default.localhost"}}) {
            TestPki.Result served = TestPki.exec(List.of("openssl", "s_client", "-connect", "127.0.0.1:"
                    + proxy.address().getPort(), "-servername", nameAndSubject[0], "-CAfile",
                    pki().ca.caCert.toString()), "", 15);
            assertTrue(served.output().contains(nameAndSubject[1] + "\n"), nameAndSubject[0] + ": " + served.output());
            assertTrue(served.output().contains("Verify return code: 0 (ok)"), served.output());
        }
    }

    /** The JDK's TLS client, trusting the test CA, asking for {@code shop.example} and ALPN {@code http/1.1}. */
    private static void loggedTls(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        ProxyUnderTest proxy = tlsProxy(ctx, node, new ClusterOverrides());
        java.security.KeyStore trust = java.security.KeyStore.getInstance(java.security.KeyStore.getDefaultType());
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(pki().ca.caCert)) {
            trust.setCertificateEntry("ca", java.security.cert.CertificateFactory.getInstance("X.509")
                    .generateCertificate(in));
        }
        javax.net.ssl.TrustManagerFactory trusted = javax.net.ssl.TrustManagerFactory.getInstance(
                javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
        trusted.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trusted.getTrustManagers(), null);
        javax.net.ssl.SSLSocket socket = ctx.register((javax.net.ssl.SSLSocket) context.getSocketFactory()
                .createSocket(proxy.address().getAddress(), proxy.address().getPort()));
        javax.net.ssl.SSLParameters parameters = socket.getSSLParameters();
        parameters.setServerNames(List.of(new javax.net.ssl.SNIHostName("shop.example")));
        parameters.setApplicationProtocols(new String[] {"http/1.1"});
        socket.setSSLParameters(parameters);
        socket.setSoTimeout(3_000);
        socket.getOutputStream().write("GET /tls HTTP/1.1\r\nHost: shop.example\r\nConnection: close\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII));
        String response = new String(untilClosed(socket), StandardCharsets.US_ASCII);
        assertTrue(response.startsWith("HTTP/1.1 200 "), response);
        String version = socket.getSession().getProtocol();
        AccessLogTap.expectPorts(GROUP + "/logged-tls", List.of(socket.getLocalPort()), "-- 200 raw1");
        com.fasterxml.jackson.databind.JsonNode line = AccessLogTap.lines(List.of(socket.getLocalPort())).get(0);
        assertEquals(version, line.path("tls_version").asText(), line.toString());
        assertEquals("shop.example", line.path("sni").asText(), line.toString());
        assertEquals("http/1.1", line.path("alpn").asText(), line.toString());
    }

    /**
     * A handshake record announcing a ClientHello of 1 MiB: refused as soon as the length is read
     * (the bound is {@code ServerNameSelector.MAX_CLIENT_HELLO_BYTES}), not buffered until the handshake timeout.
     */
    private static void oversizedClientHello(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        LogCapture log = ctx.register(new LogCapture());
        Socket socket = socket(ctx, tlsProxy(ctx, node, new ClusterOverrides().set("headerTimeoutMs", 10_000)),
                5_000);
        int announced = 1 << 20;
        byte[] record = new byte[5 + 16_384];
        ByteBuffer head = ByteBuffer.wrap(record);
        head.put((byte) 0x16).putShort((short) 0x0301).putShort((short) 16_384); // record: handshake, 16 KiB
        head.put((byte) 1).put((byte) (announced >>> 16)).put((byte) (announced >>> 8)).put((byte) announced);
        head.putShort((short) 0x0303); // client_version; the rest stays zero
        long start = System.nanoTime();
        OutputStream out = socket.getOutputStream();
        try {
            for (int i = 0; i < 4; i++) {
                out.write(record); // the start, and three records more of the announced hello
            }
            out.flush();
        } catch (IOException e) {
            // the proxy closed while we were still writing: what this case wants
        }
        assertArrayEquals(new byte[0], untilClosed(socket));
        assertWithin(millisSince(start), 0, 2_000, "closed before the handshake timeout (10 s)");
        assertEquals(0, node.requests().size(), "nothing reaches the node");
        log.assertOneDebugLine("ClientHello");
    }

    /** The first flight of a real TLS client (the JDK's) for {@code serverName}. */
    private static byte[] clientHello(String serverName) throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, null, null);
        SSLEngine engine = context.createSSLEngine(serverName, 443);
        engine.setUseClientMode(true);
        ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.wrap(ByteBuffer.allocate(0), out);
        out.flip();
        byte[] bytes = new byte[out.remaining()];
        out.get(bytes);
        return bytes;
    }

    /**
     * Every log event while a case runs, with the TLS handlers' logger at debug: a refusal must be one
     * debug line from {@code io.loadwise.dispatcher.tls}, with no stack trace anywhere and nothing at warn.
     */
    static final class LogCapture implements AutoCloseable {
        private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        private final Logger tls = (Logger) LoggerFactory.getLogger("io.loadwise.dispatcher.tls");
        private final Level tlsLevel = tls.getLevel();
        private final ListAppender<ILoggingEvent> events = new ListAppender<>();
        private boolean closed;

        LogCapture() {
            events.start();
            tls.setLevel(Level.DEBUG);
            root.addAppender(events);
        }

        /** Waits (the close is logged on the event loop) for one debug line containing {@code text}. */
        void assertOneDebugLine(String text) {
            long deadline = System.nanoTime() + 3_000_000_000L;
            List<ILoggingEvent> tlsLines;
            do {
                tlsLines = new ArrayList<>();
                for (ILoggingEvent event : List.copyOf(events.list)) {
                    if (event.getLoggerName().startsWith("io.loadwise.dispatcher.tls") && event.getLevel() == Level.DEBUG) {
                        tlsLines.add(event);
                    }
                }
            } while (tlsLines.isEmpty() && System.nanoTime() < deadline && pause());
            for (ILoggingEvent event : List.copyOf(events.list)) {
                assertEquals(null, event.getThrowableProxy(), "a stack trace was logged: " + event);
                assertTrue(event.getLevel().toInt() < Level.WARN.toInt(), "logged at " + event.getLevel() + ": "
                        + event);
            }
            assertEquals(1, tlsLines.size(), "one debug line: " + tlsLines);
            assertTrue(tlsLines.get(0).getFormattedMessage().contains(text), tlsLines.get(0).getFormattedMessage());
        }

        private static boolean pause() {
            LockSupport.parkNanos(10_000_000L);
            return true;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                root.detachAppender(events);
                tls.setLevel(tlsLevel);
            }
        }
    }
}
