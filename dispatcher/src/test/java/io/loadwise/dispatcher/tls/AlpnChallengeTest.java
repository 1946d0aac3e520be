package io.loadwise.dispatcher.tls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.loadwise.dispatcher.config.TlsConfig;
import io.loadwise.testsupport.TestPki;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;
import org.shredzone.acme4j.Identifier;
import org.shredzone.acme4j.util.CertificateUtils;
import org.shredzone.acme4j.util.KeyPairUtils;

/**
 * tls-alpn-01 on a real TLS listener (RFC 8737): a handshake whose SNI names a pending challenge and whose ALPN list
 * is {@code acme-tls/1} alone gets the challenge's certificate, negotiates {@code acme-tls/1} and is closed; every
 * other handshake (another name, ALPN with more protocols, none, or after the challenge is withdrawn) gets the
 * listener's own certificate. With both TLS providers of the listener.
 */
class AlpnChallengeTest {

    private static final String ACME_VALIDATION_OID = "1.3.6.1.5.5.7.1.31";

    @TempDir
    static Path dir;
    static TestPki.Issued localhost;
    static HeaderEchoNode node;
    static byte[] validation = new byte[32];
    static X509Certificate challenge;
    static KeyPair challengeKey;

    @BeforeAll
    static void setUp() throws IOException {
        TestPki pki = new TestPki(dir);
        localhost = pki.issue("localhost", "localhost", "localhost");
        node = new HeaderEchoNode();
        new SecureRandom().nextBytes(validation);
        challengeKey = KeyPairUtils.createKeyPair(2048);
        challenge = CertificateUtils.createTlsAlpn01Certificate(challengeKey, Identifier.dns("shop.example"),
                validation);
    }

    @AfterAll
    static void tearDown() {
        node.close();
    }

    @AfterEach
    void withdraw() {
        AlpnChallenges.withdraw("shop.example");
        System.clearProperty(TlsProviders.PROPERTY);
    }

    private static TlsProxy proxy(String provider) throws IOException {
        System.setProperty(TlsProviders.PROPERTY, provider);
        try {
            return new TlsProxy(node.address(), b -> b.tls(new TlsConfig(localhost.certificate().toString(),
                    localhost.key().toString(), null, null, null, null, null, null, null)));
        } finally {
            System.clearProperty(TlsProviders.PROPERTY);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdk", "openssl"})
    void onlyTheCasHandshakeGetsTheChallengeCertificate(String provider) throws Exception {
        try (TlsProxy proxy = proxy(provider)) {
            AlpnChallenges.offer("Shop.Example", challengeKey.getPrivate(), challenge);
            assertEquals(1, AlpnChallenges.size());

            long answered = AlpnChallenges.answered();
            Handshake ca = handshake(proxy.port(), "shop.example", List.of("acme-tls/1"));
            assertEquals(answered + 1, AlpnChallenges.answered());
            assertEquals(challenge, ca.leaf(), "the challenge's certificate");
            assertEquals("acme-tls/1", ca.protocol());
            assertArrayEquals(expectedExtension(), ca.leaf().getExtensionValue(ACME_VALIDATION_OID));
            assertEquals(-1, ca.afterwards(), "closed after the handshake, nothing sent");

            assertEquals("CN=localhost", handshake(proxy.port(), "shop.example", List.of("acme-tls/1", "http/1.1"))
                    .leaf().getSubjectX500Principal().getName(), "a browser offering acme-tls/1 among others");
            assertEquals("CN=localhost", handshake(proxy.port(), "other.example", List.of("acme-tls/1"))
                    .leaf().getSubjectX500Principal().getName(), "a name with no challenge pending");
            Handshake plain = handshake(proxy.port(), "shop.example", List.of());
            assertEquals("CN=localhost", plain.leaf().getSubjectX500Principal().getName(), "no ALPN");

            assertEquals(answered + 1, AlpnChallenges.answered(), "only the CA's handshake counted");
            AlpnChallenges.withdraw("shop.example");
            assertEquals(0, AlpnChallenges.size());
            assertEquals("CN=localhost", handshake(proxy.port(), "shop.example", List.of("acme-tls/1"))
                    .leaf().getSubjectX500Principal().getName(), "withdrawn");
        }
    }

    /** The extension's DER as X509Certificate returns it: an OCTET STRING wrapping OCTET STRING(validation). */
    private static byte[] expectedExtension() {
        byte[] inner = new byte[2 + validation.length];
        inner[0] = 0x04;
        inner[1] = (byte) validation.length;
        System.arraycopy(validation, 0, inner, 2, validation.length);
        byte[] outer = new byte[2 + inner.length];
        outer[0] = 0x04;
        outer[1] = (byte) inner.length;
        System.arraycopy(inner, 0, outer, 2, inner.length);
        return outer;
    }

    record Handshake(X509Certificate leaf, String protocol, int afterwards) {
    }

    /** A JDK client's handshake: what it was served, what it negotiated, and its next read (-1: closed). */
    private static Handshake handshake(int port, String serverName, List<String> alpn) throws Exception {
        SSLContext context = TestPki.readingAnyCertificate();
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setServerNames(List.of(new SNIHostName(serverName)));
            parameters.setApplicationProtocols(alpn.toArray(String[]::new));
            socket.setSSLParameters(parameters);
            socket.startHandshake();
            X509Certificate leaf = (X509Certificate) socket.getSession().getPeerCertificates()[0];
            String protocol = socket.getApplicationProtocol();
            int next;
            if ("acme-tls/1".equals(protocol)) {
                InputStream in = socket.getInputStream();
                next = in.read();
            } else {
                socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                next = socket.getInputStream().read();
            }
            return new Handshake(leaf, protocol, next);
        }
    }
}
