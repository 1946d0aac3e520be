package io.loadwise.dispatcher.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.NodeTlsConfig;
import io.loadwise.testsupport.TestPki;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TLS to the nodes: verified against the CA and the node's address, pooled and reused. */
class NodeTlsTest {

    @TempDir
    static Path dir;
    static TestPki pki;
    static TestPki.Issued nodeCert;
    static TestPki.Issued wrongName;

    @BeforeAll
    static void setUp() throws IOException {
        pki = new TestPki(dir);
        nodeCert = pki.issue("node", "node", "node.internal"); // SANs: IP:127.0.0.1, DNS:node.internal
        wrongName = pki.issue("wrong", "wrong"); // no SAN at all
    }

    private static HeaderEchoNode tlsNode(TestPki.Issued pair) throws IOException {
        return new HeaderEchoNode(SslContextBuilder.forServer(pair.certificate().toFile(), pair.key().toFile())
                .build());
    }

    private static TestPki.Result get(TlsProxy proxy, String path) throws IOException {
        return TestPki.exec(List.of("curl", "-sS", "-i", "--max-time", "10",
                "http://127.0.0.1:" + proxy.port() + path, "http://127.0.0.1:" + proxy.port() + path), null, 20);
    }

    @Test
    void verifiedNodeIsReachedOverTlsAndTheConnectionReused() throws IOException {
        try (HeaderEchoNode node = tlsNode(nodeCert);
                TlsProxy proxy = new TlsProxy(node.address(),
                        b -> b.nodeTls(new NodeTlsConfig(pki.caCert.toString(), null)))) {
            TestPki.Result result = get(proxy, "/secure");
            assertEquals(0, result.exit(), result.output());
            assertEquals(2, result.output().split("HTTP/1.1 200", -1).length - 1, result.output());
            assertEquals(1, node.accepts.get(), "the second request reused the pooled TLS connection");
        }
    }

    @Test
    void aNodeCertificateNotNamingTheNodeIsRefused() throws IOException {
        try (HeaderEchoNode node = tlsNode(wrongName);
                TlsProxy proxy = new TlsProxy(node.address(),
                        b -> b.nodeTls(new NodeTlsConfig(pki.caCert.toString(), null)))) {
            TestPki.Result result = get(proxy, "/x");
            assertTrue(result.output().contains("HTTP/1.1 502"), result.output());
            assertEquals(0, node.received.size(), "nothing was sent to the unverified node");
        }
        try (HeaderEchoNode node = tlsNode(wrongName);
                TlsProxy proxy = new TlsProxy(node.address(),
                        b -> b.nodeTls(new NodeTlsConfig(pki.caCert.toString(), false)))) {
            TestPki.Result result = get(proxy, "/x");
            assertTrue(result.output().contains("HTTP/1.1 200"), "verifyHostname false: " + result.output());
        }
    }

    @Test
    void aNodeFromAnotherCaIsRefused() throws IOException {
        TestPki other = new TestPki(java.nio.file.Files.createDirectories(dir.resolve("other")));
        try (HeaderEchoNode node = tlsNode(other.issue("n", "n", "localhost"));
                TlsProxy proxy = new TlsProxy(node.address(),
                        b -> b.nodeTls(new NodeTlsConfig(pki.caCert.toString(), null)))) {
            TestPki.Result result = get(proxy, "/x");
            assertTrue(result.output().contains("HTTP/1.1 502"), result.output());
        }
    }
}
