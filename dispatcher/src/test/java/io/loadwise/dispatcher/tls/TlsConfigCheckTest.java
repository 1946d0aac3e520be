package io.loadwise.dispatcher.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigValidator;
import io.loadwise.dispatcher.config.Http2Config;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.config.TlsConfig;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.testsupport.TestPki;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code validate}'s errors for the TLS fields: each names the field and says what is wrong. */
class TlsConfigCheckTest {

    @TempDir
    static Path dir;
    static TestPki pki;
    static TestPki.Issued server;
    static TestPki.Issued other;

    @BeforeAll
    static void setUp() throws IOException {
        pki = new TestPki(dir);
        server = pki.issue("server", "localhost", "localhost");
        other = pki.issue("other", "other");
    }

    private static List<String> errors(TlsConfig tls) {
        return errors(cluster(Mode.HTTP).tls(tls).build());
    }

    private static List<String> errors(ClusterConfig cluster) {
        return new ConfigValidator(PolicyRegistry.load()).validateCluster("clusters[0]", cluster);
    }

    private static ClusterConfig.Builder cluster(Mode mode) {
        return ClusterConfig.builder().name("web").mode(mode).listen("127.0.0.1:8443").policy("round-robin")
                .nodes(List.of(new NodeConfig("a", "127.0.0.1:8080", null, null, null, null)));
    }

    private static TlsConfig pair(Object cert, Object key, String password) {
        return new TlsConfig(String.valueOf(cert), String.valueOf(key), password, null, null, null, null, null, null);
    }

    @Test
    void aGoodPairPasses() {
        assertEquals(List.of(), errors(pair(server.certificate(), server.key(), null)));
    }

    @Test
    void missingFile() {
        assertEquals(List.of("clusters[0].tls.certificate: " + dir.resolve("nope.pem") + ": no such file"),
                errors(pair(dir.resolve("nope.pem"), server.key(), null)));
    }

    @Test
    void keyNotMatchingTheCertificate() {
        assertEquals(List.of("clusters[0].tls.key: " + other.key() + ": the private key does not belong to the "
                + "certificate in " + server.certificate()), errors(pair(server.certificate(), other.key(), null)));
    }

    @Test
    void wrongAndMissingKeyPassword() throws IOException {
        Path encrypted = pki.encryptedKey(server, "right");
        assertEquals(List.of(), errors(pair(server.certificate(), encrypted, "right")));
        assertEquals(List.of("clusters[0].tls.key: " + encrypted + ": wrong keyPassword (the key cannot be "
                + "decrypted with it)"), errors(pair(server.certificate(), encrypted, "wrong")));
        assertEquals(List.of("clusters[0].tls.key: " + encrypted + ": the private key is encrypted and no "
                + "keyPassword is given"), errors(pair(server.certificate(), encrypted, null)));
    }

    @Test
    void aKeyWhereTheCertificateShouldBe() {
        List<String> errors = errors(pair(server.key(), server.key(), null));
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).startsWith("clusters[0].tls.certificate: " + server.key() + ": "), errors.get(0));
    }

    @Test
    void pkcs1KeysAreExplained() throws IOException {
        Path rsa = dir.resolve("rsa.key");
        TestPki.run("genrsa", "-traditional", "-out", rsa.toString(), "2048");
        List<String> errors = errors(pair(server.certificate(), rsa, null));
        assertEquals(List.of("clusters[0].tls.key: " + rsa + ": a 'RSA PRIVATE KEY' block cannot be read; convert "
                + "the key to PKCS#8 with: openssl pkcs8 -topk8 -nocrypt -in rsa.key -out key.pem"), errors);
    }

    @Test
    void obsoleteProtocolsAndBadClientAuth() {
        TlsConfig tls = new TlsConfig(server.certificate().toString(), server.key().toString(), null,
                List.of("TLSv1.1"), null, null, "always", null, 10);
        assertEquals(List.of(
                "clusters[0].tls.protocols: 'TLSv1.1' is not one of TLSv1.2, TLSv1.3 (TLS 1.0 and 1.1 are obsolete, RFC 8996)",
                "clusters[0].tls.clientAuth: 'always' is not none, optional or require",
                "clusters[0].tls.reloadCheckMs: 10 out of range 100..3600000"), errors(tls));
        TlsConfig noCa = new TlsConfig(server.certificate().toString(), server.key().toString(), null, null, null,
                null, "require", null, null);
        assertEquals(List.of("clusters[0].tls.clientAuth: require needs clientCa, the CAs client certificates "
                + "must chain to"), errors(noCa));
    }

    @Test
    void unsupportedCiphersOnly() {
        TlsConfig tls = new TlsConfig(server.certificate().toString(), server.key().toString(), null, null,
                List.of("TLS_NO_SUCH_SUITE"), null, null, null, null);
        List<String> errors = errors(tls);
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).startsWith("clusters[0].tls: none of the configured ciphers is supported"),
                errors.get(0));
    }

    @Test
    void sniEntriesNeedNamesAndGoodFiles() {
        TlsConfig tls = new TlsConfig(server.certificate().toString(), server.key().toString(), null, null, null,
                null, null, List.of(new TlsConfig.SniCertificate(List.of("bad name"), other.certificate().toString(),
                        other.key().toString(), null)), null);
        assertEquals(List.of("clusters[0].tls.certificates[0].serverNames: 'bad name' is not a host name (or *.domain)"),
                errors(tls));
        TlsConfig mismatched = new TlsConfig(server.certificate().toString(), server.key().toString(), null, null,
                null, null, null, List.of(new TlsConfig.SniCertificate(List.of("*.example.com"),
                        other.certificate().toString(), server.key().toString(), null)), null);
        assertEquals(List.of("clusters[0].tls.certificates[0].key: " + server.key() + ": the private key does not "
                + "belong to the certificate in " + other.certificate()), errors(mismatched));
    }

    @Test
    void tcpClustersTakeNoTls() {
        assertEquals(List.of("clusters[0].tls: only for mode http (a tcp cluster passes TLS through to its nodes)",
                "clusters[0].http2: only for mode http"), errors(cluster(Mode.TCP)
                        .tls(pair(server.certificate(), server.key(), null)).http2(new Http2Config(true, null, null))
                        .build()));
    }

    @Test
    void http2Limits() {
        assertEquals(List.of("clusters[0].http2.maxConcurrentStreams: 0 out of range 1..10000",
                "clusters[0].http2.maxHeaderListSize: 100 out of range 1024..1048576"),
                errors(cluster(Mode.HTTP).http2(new Http2Config(null, 0, 100)).build()));
    }

    @Test
    void expiredCertificateIsAWarningNotAnError() throws Exception {
        TestPki.Issued expired = pki.expired("expired");
        String json = """
                {"admin": {"listen": "127.0.0.1:0", "token": "0123456789abcdef0123456789abcdef"},
                 "clusters": [{"name": "web", "mode": "http", "listen": "127.0.0.1:8443", "policy": "round-robin",
                   "tls": {"certificate": "%s", "key": "%s"},
                   "nodes": [{"name": "a", "address": "127.0.0.1:8080"}]}]}
                """.formatted(expired.certificate(), expired.key());
        Path file = Files.writeString(dir.resolve("loadwise.json"), json);
        LoadwiseConfig config = ConfigLoader.load(file);
        assertEquals(List.of(), new ConfigValidator(PolicyRegistry.load()).validate(config));
        List<String> warnings = TlsConfigCheck.warnings(config, Instant.now());
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith("clusters[0].tls: certificate CN=expired expired on 2020-01-02"),
                warnings.get(0));
    }
}
