package io.loadwise.dispatcher.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.Http2Config;
import io.loadwise.dispatcher.config.TlsConfig;
import io.loadwise.dispatcher.control.ListenerStatus;
import io.loadwise.dispatcher.tls.CertificateInfo;
import io.loadwise.dispatcher.tls.HeaderEchoNode;
import io.loadwise.dispatcher.tls.TlsProxy;
import io.loadwise.testsupport.TestPki;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The operator's view of a listener: protocols, and the certificate in use with its expiry warning. */
class ListenerStatusTest {

    @TempDir
    Path dir;

    @Test
    void tlsListenerShowsItsCertificateAndWarnsBeforeExpiry() throws Exception {
        TestPki pki = new TestPki(dir);
        TestPki.Issued cert = pki.issue("server", "localhost", "localhost"); // 30 days: no warning yet
        TestPki.Issued expired = pki.expired("old");
        try (HeaderEchoNode node = new HeaderEchoNode();
                TlsProxy proxy = new TlsProxy(node.address(), b -> b.tls(new TlsConfig(cert.certificate().toString(),
                        cert.key().toString(), null, null, null, null, null,
                        List.of(new TlsConfig.SniCertificate(List.of("old.example"), expired.certificate().toString(),
                                expired.key().toString(), null)), null)))) {
            ListenerStatus status = StatusReader.listener(new RunningCluster(proxy.cluster, proxy.server),
                    proxy.cluster.config());
            assertEquals(List.of("h2", "http/1.1"), status.protocols());
            assertTrue(status.tls());
            assertEquals(List.of("TLSv1.3", "TLSv1.2"), status.tlsVersions());
            CertificateInfo main = status.certificates().get(0);
            assertEquals("CN=localhost", main.subject());
            assertEquals(List.of("IP:127.0.0.1", "DNS:localhost"), main.subjectAltNames());
            assertTrue(main.secondsToExpiry(Instant.now()) > 29L * 86_400);
            assertFalse(main.expiresSoon(Instant.now()));
            assertTrue(main.expiresSoon(Instant.now().plusSeconds(17L * 86_400)), "14 days before expiry");
            assertEquals(List.of("old.example"), status.certificates().get(1).serverNames());
            assertEquals(1, status.warnings().size(), status.warnings().toString());
            assertTrue(status.warnings().get(0).contains("CN=old expired on 2020-01-02"), status.warnings().get(0));
        }
    }

    @Test
    void clearListenerShowsH2cOrNot() throws Exception {
        try (HeaderEchoNode node = new HeaderEchoNode();
                TlsProxy on = new TlsProxy(node.address(), b -> b);
                TlsProxy off = new TlsProxy(node.address(), b -> b.http2(new Http2Config(false, null, null)))) {
            assertEquals(List.of("http/1.1", "h2c"), StatusReader.listener(new RunningCluster(on.cluster, on.server),
                    on.cluster.config()).protocols());
            ListenerStatus plain = StatusReader.listener(new RunningCluster(off.cluster, off.server),
                    off.cluster.config());
            assertEquals(List.of("http/1.1"), plain.protocols());
            assertFalse(plain.tls());
        }
    }
}
