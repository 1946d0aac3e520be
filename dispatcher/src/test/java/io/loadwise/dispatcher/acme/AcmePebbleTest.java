package io.loadwise.dispatcher.acme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.loadwise.dispatcher.config.AcmeConfig;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.TlsConfig;
import io.loadwise.dispatcher.tls.AlpnChallenges;
import io.loadwise.dispatcher.runtime.HttpNodes;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.dispatcher.testsupport.Configs;
import io.loadwise.dispatcher.testsupport.DispatcherUnderTest;
import io.loadwise.testsupport.TestPki;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ACME against a real CA (issue 34, item 4): Pebble, Let's Encrypt's test server, built from the Go module proxy.
 * A TLS cluster with {@code acme} starts on a self-signed stand-in; Pebble checks the http-01 challenge through the
 * dispatcher's plain listener on the port it was told, issues, and the next handshake gets Pebble's certificate without
 * a restart. Certificates last 15 s here, so the renewal at two thirds of their life comes within the test; then the CA
 * goes away, the next renewal fails, and the certificate in use stays served.
 */
class AcmePebbleTest {

    private static final Duration VALIDITY = Duration.ofSeconds(15);

    @TempDir
    Path dir;
    private PebbleCa ca;
    private DispatcherUnderTest loadwise;
    private HttpNodes.Node node;

    @AfterEach
    void stop() {
        if (loadwise != null) {
            loadwise.close();
        }
        if (ca != null) {
            ca.close();
        }
        if (node != null) {
            node.close();
        }
    }

    @Test
    void obtainsRenewsAndKeepsServingWhenTheCaGoesAway() throws Exception {
        assumeTrue(PebbleCa.goAvailable(), "no Go toolchain to build Pebble with");
        int challengePort = PebbleCa.freePort();
        ca = PebbleCa.start(dir, challengePort, VALIDITY);
        node = new HttpNodes.Node("n1");
        Path certificate = dir.resolve("acme/shop.pem");
        Path key = dir.resolve("acme/shop.key");
        TlsConfig tls = new TlsConfig(certificate.toString(), key.toString(), null, null, null, null, null, null, null,
                new AcmeConfig(ca.directory(), "ops@example.com", List.of("localhost"), null, null,
                        PebbleCa.trustedCa().toString()), null);
        LoadwiseConfig config = Configs.config(
                ClusterConfig.builder().name("plain").mode(Mode.HTTP).listen("127.0.0.1:" + challengePort)
                        .policy("round-robin").nodes(Configs.nodes(node.address())).build(),
                ClusterConfig.builder().name("shop").mode(Mode.HTTP).listen("127.0.0.1:0").policy("round-robin")
                        .tls(tls).nodes(Configs.nodes(node.address())).build());
        loadwise = DispatcherUnderTest.start(config);
        InetSocketAddress shop = loadwise.boundAddress("shop");

        // first: a stand-in or (already) Pebble's; then Pebble's, issued through the http-01 check on "plain"
        Await.until("Pebble's certificate served", Duration.ofSeconds(90),
                () -> issuer(tryServed(shop)).contains("Pebble"));
        X509Certificate first = served(shop);
        assertTrue(first.getSubjectAlternativeNames().toString().contains("localhost"), first.toString());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(key)));
        assertTrue(Files.isRegularFile(AcmeRenewal.accountKeyFile(tls)), "the account's key is kept for renewals");
        List<String> pebbleLog = ca.logLines();
        assertTrue(pebbleLog.stream().anyMatch(l -> l.contains("Attempting to validate w/ HTTP: http://localhost:"
                + challengePort + AcmeChallenges.HTTP_PREFIX)) && pebbleLog.stream().anyMatch(
                        l -> l.contains("set VALID by completed challenge")),
                "Pebble checked http-01 on the plain listener:\n" + String.join("\n", pebbleLog));
        assertEquals(0, AcmeChallenges.size(), "no token left answerable after the order");

        // renewed at two thirds of 15 s, served without a restart
        Await.until("a renewed certificate served", Duration.ofSeconds(60),
                () -> tryServed(shop) != null && !tryServed(shop).getSerialNumber().equals(first.getSerialNumber()));
        X509Certificate renewed = served(shop);
        assertTrue(AcmeStatus.figures().get("cluster shop").issued() >= 2, AcmeStatus.figures().toString());

        // the CA goes away: the renewal fails, is counted, and the certificate in use stays
        long failedBefore = AcmeStatus.figures().get("cluster shop").failed();
        ca.close();
        Await.until("a failed renewal counted", Duration.ofSeconds(60),
                () -> AcmeStatus.figures().get("cluster shop").failed() > failedBefore);
        assertEquals(renewed.getSerialNumber(), served(shop).getSerialNumber(), "the old certificate stays");
        assertNotEquals(null, AcmeStatus.figures().get("cluster shop").lastError());
    }

    @Test
    void obtainsThroughTlsAlpn01OnTheTlsListenerItself() throws Exception {
        assumeTrue(PebbleCa.goAvailable(), "no Go toolchain to build Pebble with");
        int tlsPort = PebbleCa.freePort();
        ca = PebbleCa.start(dir, PebbleCa.freePort(), tlsPort, Duration.ofHours(1));
        node = new HttpNodes.Node("n1");
        TlsConfig tls = new TlsConfig(dir.resolve("alpn/shop.pem").toString(), dir.resolve("alpn/shop.key").toString(),
                null, null, null, null, null, null, null, new AcmeConfig(ca.directory(), null, List.of("localhost"),
                        AcmeConfig.TLS_ALPN_01, null, PebbleCa.trustedCa().toString()), null);
        // its own cluster name: AcmeStatus is per listener name for the whole JVM, and the other test reads "shop"
        loadwise = DispatcherUnderTest.start(Configs.config(ClusterConfig.builder().name("alpn").mode(Mode.HTTP)
                .listen("127.0.0.1:" + tlsPort).policy("round-robin").tls(tls).nodes(Configs.nodes(node.address()))
                .build()));
        InetSocketAddress shop = loadwise.boundAddress("alpn");
        long answeredBefore = AlpnChallenges.answered();

        // no HTTP listener at all: Pebble's check is a TLS handshake with ALPN acme-tls/1 on the listener itself
        Await.until("Pebble's certificate served", Duration.ofSeconds(90),
                () -> issuer(tryServed(shop)).contains("Pebble"));
        List<String> pebbleLog = ca.logLines();
        assertTrue(pebbleLog.stream().anyMatch(l -> l.contains("set VALID by completed challenge")),
                "Pebble checked a challenge:\n" + String.join("\n", pebbleLog));
        assertTrue(AlpnChallenges.answered() > answeredBefore, "Pebble's acme-tls/1 handshakes were answered");
        assertTrue(pebbleLog.stream().noneMatch(l -> l.contains("Attempting to validate w/ HTTP")),
                String.join("\n", pebbleLog));
        assertEquals(0, AlpnChallenges.size(), "no challenge left answerable");
    }

    private static String issuer(X509Certificate c) {
        return c == null ? "" : c.getIssuerX500Principal().getName();
    }

    /** {@link #served}, or null while the listener does not complete a handshake. */
    private static X509Certificate tryServed(InetSocketAddress at) {
        try {
            return served(at);
        } catch (Exception e) {
            return null;
        }
    }

    /** The leaf certificate a handshake with SNI {@code localhost} gets (trusted or not: it is read, not checked). */
    private static X509Certificate served(InetSocketAddress at) throws Exception {
        SSLContext context = TestPki.readingAnyCertificate();
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(at.getAddress(), at.getPort())) {
            SSLParameters params = socket.getSSLParameters();
            params.setServerNames(List.of(new SNIHostName("localhost")));
            socket.setSSLParameters(params);
            socket.setSoTimeout(5_000);
            socket.startHandshake();
            return (X509Certificate) socket.getSession().getPeerCertificates()[0];
        }
    }
}
