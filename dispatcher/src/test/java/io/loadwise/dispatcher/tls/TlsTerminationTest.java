package io.loadwise.dispatcher.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.TlsConfig;
import io.loadwise.testsupport.TestPki;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * TLS termination end to end, with real clients ({@code curl}, {@code openssl s_client}) against a real
 * listener in front of a real node, with both TLS providers.
 */
class TlsTerminationTest {

    @TempDir
    static Path dir;
    static TestPki pki;
    static TestPki.Issued localhost;
    static TestPki.Issued other;
    static TestPki.Issued client;
    static HeaderEchoNode node;

    @BeforeAll
    static void setUp() throws IOException {
        pki = new TestPki(dir);
        localhost = pki.issue("localhost", "localhost", "localhost");
        other = pki.issue("b", "b.example", "b.example");
        client = pki.issue("client", "client");
        node = new HeaderEchoNode();
    }

    @AfterAll
    static void tearDown() {
        node.close();
        System.clearProperty(TlsProviders.PROPERTY);
    }

    private static TlsProxy proxy(String provider, UnaryOperator<ClusterConfig.Builder> configure) throws IOException {
        System.setProperty(TlsProviders.PROPERTY, provider);
        try {
            return new TlsProxy(node.address(), configure);
        } finally {
            System.clearProperty(TlsProviders.PROPERTY);
        }
    }

    private static TlsConfig tls(TestPki.Issued pair) {
        return new TlsConfig(pair.certificate().toString(), pair.key().toString(), null, null, null, null, null,
                null, null);
    }

    private static TestPki.Result curl(int port, String... extra) throws IOException {
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "-v", "--max-time", "10", "--cacert",
                pki.caCert.toString(), "--resolve", "localhost:" + port + ":127.0.0.1"));
        command.addAll(List.of(extra));
        command.add("https://localhost:" + port + "/hello");
        return TestPki.exec(command, null, 20);
    }

    private static TestPki.Result sClient(int port, String... extra) throws IOException {
        List<String> command = new ArrayList<>(List.of("openssl", "s_client", "-connect", "127.0.0.1:" + port,
                "-CAfile", pki.caCert.toString()));
        command.addAll(List.of(extra));
        return TestPki.exec(command, "", 20);
    }

    @Test
    void boringSslLoadsOnLinuxX86() {
        if ("Linux".equals(System.getProperty("os.name")) && "amd64".equals(System.getProperty("os.arch"))) {
            assertTrue(OpenSsl.isAvailable(), "netty-tcnative-boringssl-static did not load: "
                    + OpenSsl.unavailabilityCause());
            assertEquals(SslProvider.OPENSSL, TlsProviders.preferred());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdk", "openssl"})
    void curlOverTls12And13ReachesTheNodeAsHttps(String provider) throws IOException {
        try (TlsProxy proxy = proxy(provider, b -> b.tls(tls(localhost)))) {
            TestPki.Result v12 = curl(proxy.port(), "--tlsv1.2", "--tls-max", "1.2");
            assertEquals(0, v12.exit(), v12.output());
            assertTrue(v12.output().contains("SSL connection using TLSv1.2 / ECDHE-ECDSA-AES"), v12.output());
            assertTrue(v12.output().contains("x-forwarded-proto: https"), v12.output());
            assertTrue(v12.output().contains(";proto=https"), v12.output());
            TestPki.Result v13 = curl(proxy.port(), "--tlsv1.3");
            assertEquals(0, v13.exit(), v13.output());
            assertTrue(v13.output().contains("SSL connection using TLSv1.3"), v13.output());
            assertTrue(v13.output().contains("\nGET /hello\n"), v13.output());
            assertEquals(provider.equals("jdk") ? SslProvider.JDK : SslProvider.OPENSSL,
                    proxy.server.tls().current().provider());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdk", "openssl"})
    void tls10And11AreRefused(String provider) throws IOException {
        try (TlsProxy proxy = proxy(provider, b -> b.tls(tls(localhost)))) {
            for (String version : new String[] {"-tls1", "-tls1_1"}) {
                // SECLEVEL=0 lets this OpenSSL offer the old versions at all: the refusal must be the server's.
                TestPki.Result old = sClient(proxy.port(), version, "-cipher", "DEFAULT@SECLEVEL=0");
                assertNotEquals(0, old.exit(), old.output());
                assertTrue(old.output().contains("alert protocol version")
                        || old.output().contains("unsupported protocol")
                        || old.output().contains("handshake failure"), old.output());
                assertTrue(old.output().contains("no peer certificate available"), old.output());
            }
            TestPki.Result modern = sClient(proxy.port(), "-tls1_2");
            assertEquals(0, modern.exit(), modern.output());
            assertTrue(modern.output().contains("Verify return code: 0 (ok)"), modern.output());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdk", "openssl"})
    void sniPicksTheCertificateForTheNameAsked(String provider) throws IOException {
        TlsConfig withSni = new TlsConfig(localhost.certificate().toString(), localhost.key().toString(), null, null,
                null, null, null, List.of(new TlsConfig.SniCertificate(List.of("b.example", "*.b.example"),
                        other.certificate().toString(), other.key().toString(), null)), null);
        try (TlsProxy proxy = proxy(provider, b -> b.tls(withSni))) {
            assertTrue(sClient(proxy.port(), "-servername", "b.example").output().contains("subject=CN = b.example"));
            assertTrue(sClient(proxy.port(), "-servername", "x.b.example").output().contains("subject=CN = b.example"));
            assertTrue(sClient(proxy.port(), "-servername", "localhost").output().contains("subject=CN = localhost"));
            assertTrue(sClient(proxy.port(), "-noservername").output().contains("subject=CN = localhost"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdk", "openssl"})
    void requiredClientCertificates(String provider) throws IOException {
        TlsConfig mutual = new TlsConfig(localhost.certificate().toString(), localhost.key().toString(), null, null,
                null, pki.caCert.toString(), "require", null, null);
        try (TlsProxy proxy = proxy(provider, b -> b.tls(mutual))) {
            TestPki.Result without = curl(proxy.port());
            assertNotEquals(0, without.exit(), without.output());
            assertTrue(!without.output().contains("x-forwarded-proto"), without.output());
            TestPki.Result with = curl(proxy.port(), "--cert", client.certificate().toString(), "--key",
                    client.key().toString());
            assertEquals(0, with.exit(), with.output());
            assertTrue(with.output().contains("x-forwarded-proto: https"), with.output());
            TestPki.Issued stranger = new TestPki(Files.createDirectories(dir.resolve("other-ca")))
                    .issue("stranger", "stranger");
            TestPki.Result untrusted = curl(proxy.port(), "--cert", stranger.certificate().toString(), "--key",
                    stranger.key().toString());
            assertNotEquals(0, untrusted.exit(), untrusted.output());
        }
    }

    @Test
    void encryptedKeyWithItsPassword() throws IOException {
        Path encrypted = pki.encryptedKey(localhost, "s3cret");
        TlsConfig config = new TlsConfig(localhost.certificate().toString(), encrypted.toString(), "s3cret", null,
                null, null, null, null, null);
        try (TlsProxy proxy = proxy("openssl", b -> b.tls(config))) {
            TestPki.Result ok = curl(proxy.port());
            assertEquals(0, ok.exit(), ok.output());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdk", "openssl"})
    void replacedCertificateIsServedToTheNextConnection(String provider) throws Exception {
        Path live = Files.createDirectories(dir.resolve("live-" + provider));
        Path cert = live.resolve("server.pem");
        Path key = live.resolve("server.key");
        Files.copy(localhost.certificate(), cert);
        Files.copy(localhost.key(), key);
        TlsConfig config = new TlsConfig(cert.toString(), key.toString(), null, null, null, null, null, null, 100);
        try (TlsProxy proxy = proxy(provider, b -> b.tls(config));
                Socket open = new Socket("127.0.0.1", proxy.port())) {
            assertTrue(sClient(proxy.port()).output().contains("subject=CN = localhost\n"));
            TestPki.Issued renewed = pki.issue("renewed-" + provider, "renewed.localhost", "localhost");
            // key first, then certificate: in between, the pair does not match and the old one stays in use
            Files.copy(renewed.key(), key, StandardCopyOption.REPLACE_EXISTING);
            proxy.server.tls().checkFiles();
            assertTrue(sClient(proxy.port()).output().contains("subject=CN = localhost\n"));
            Files.copy(renewed.certificate(), cert, StandardCopyOption.REPLACE_EXISTING);
            long deadline = System.nanoTime() + 10_000_000_000L;
            String served;
            do {
                served = sClient(proxy.port()).output();
            } while (!served.contains("subject=CN = renewed.localhost") && System.nanoTime() < deadline);
            assertTrue(served.contains("subject=CN = renewed.localhost"), served);
            assertTrue(open.isConnected());
        }
    }

    @Test
    void clearTextHttpToTheTlsPortGetsAPlain400() throws IOException {
        int before = node.received.size();
        try (TlsProxy proxy = proxy("openssl", b -> b.tls(tls(localhost)));
                Socket socket = new Socket("127.0.0.1", proxy.port())) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            assertTrue(answer.startsWith("HTTP/1.1 400 Bad Request\r\n"), answer);
            assertTrue(answer.contains("use an https:// URL"), answer);
        }
        assertEquals(before, node.received.size(), "nothing reaches the node");
    }
}
