package io.loadwise.dispatcher.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.TlsConfig;
import io.loadwise.dispatcher.tls.HeaderEchoNode;
import io.loadwise.dispatcher.tls.PemFiles;
import io.loadwise.dispatcher.tls.TlsProxy;
import io.loadwise.testsupport.TestPki;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** HTTP/2 to clients end to end: curl, Java's HttpClient and h2load against a real listener and node. */
class Http2EndToEndTest {

    @TempDir
    static Path dir;
    static TestPki pki;
    static TestPki.Issued localhost;
    static HeaderEchoNode node;
    static TlsProxy https;
    static TlsProxy clear;

    @BeforeAll
    static void setUp() throws IOException {
        pki = new TestPki(dir);
        localhost = pki.issue("localhost", "localhost", "localhost");
        node = new HeaderEchoNode();
        TlsConfig tls = new TlsConfig(localhost.certificate().toString(), localhost.key().toString(), null, null,
                null, null, null, null, null);
        https = new TlsProxy(node.address(), b -> b.tls(tls));
        clear = new TlsProxy(node.address(), b -> b);
    }

    @AfterAll
    static void tearDown() {
        https.close();
        clear.close();
        node.close();
    }

    private static TestPki.Result curl(String url, String... options) throws IOException {
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "-v", "--max-time", "10", "--cacert",
                pki.caCert.toString(), "--resolve", "localhost:" + https.port() + ":127.0.0.1"));
        command.addAll(List.of(options));
        command.add(url);
        return TestPki.exec(command, null, 20);
    }

    @Test
    void curlNegotiatesH2ByAlpn() throws IOException {
        TestPki.Result result = curl("https://localhost:" + https.port() + "/over-h2", "--http2");
        assertEquals(0, result.exit(), result.output());
        assertTrue(result.output().contains("ALPN: server accepted h2"), result.output());
        assertTrue(result.output().contains("< HTTP/2 200"), result.output());
        assertTrue(result.output().contains("\nGET /over-h2\n"), result.output());
        assertTrue(result.output().contains("x-forwarded-proto: https"), result.output());
        assertTrue(result.output().contains("host: localhost:" + https.port()), result.output());
    }

    @Test
    void curlHttp11StillWorksOnTheSameTlsListener() throws IOException {
        TestPki.Result result = curl("https://localhost:" + https.port() + "/old", "--http1.1");
        assertEquals(0, result.exit(), result.output());
        assertTrue(result.output().contains("ALPN: server accepted http/1.1"), result.output());
        assertTrue(result.output().contains("< HTTP/1.1 200"), result.output());
    }

    @Test
    void h2cByPriorKnowledge() throws IOException {
        TestPki.Result result = curl("http://127.0.0.1:" + clear.port() + "/prior", "--http2-prior-knowledge");
        assertEquals(0, result.exit(), result.output());
        assertTrue(result.output().contains("< HTTP/2 200"), result.output());
        assertTrue(result.output().contains("x-forwarded-proto: http\n"), result.output());
    }

    @Test
    void h2cByUpgrade() throws IOException {
        TestPki.Result result = curl("http://127.0.0.1:" + clear.port() + "/upgraded", "--http2");
        assertEquals(0, result.exit(), result.output());
        assertTrue(result.output().contains("< HTTP/1.1 101"), result.output());
        assertTrue(result.output().contains("< HTTP/2 200"), result.output());
        assertTrue(result.output().contains("\nGET /upgraded\n"), result.output());
        assertTrue(!result.output().contains("http2-settings:"), "the upgrade's own headers stay here");
    }

    @Test
    void anH2cUpgradeWithABodyIsServedOverHttp11AndNeverOfferedToTheNode() throws IOException {
        TestPki.Result result = curl("http://127.0.0.1:" + clear.port() + "/posted", "--http2", "--data", "hello");
        assertEquals(0, result.exit(), result.output());
        assertTrue(result.output().contains("< HTTP/1.1 200"), result.output());
        assertTrue(result.output().contains("\nPOST /posted\n"), result.output());
        assertTrue(!result.output().contains("upgrade: h2c"), result.output());
    }

    @Test
    void largeResponseOverH2IsWholeDespiteFlowControl() throws IOException {
        TestPki.Result result = curl("https://localhost:" + https.port() + "/size/3000000", "--http2", "-o",
                dir.resolve("big").toString(), "-w", "size=%{size_download}");
        assertEquals(0, result.exit(), result.output());
        assertTrue(result.output().contains("size=3000000"), result.output());
    }

    @Test
    void javaHttpClientOverH2WithConcurrentStreamsAndBodies() throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", PemFiles.certificates(pki.caCert.toString()).get(0));
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(null, factory.getTrustManagers(), null);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(ssl)
                .connectTimeout(Duration.ofSeconds(5)).build();
        List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            HttpRequest request = HttpRequest.newBuilder(URI.create("https://localhost:" + https.port() + "/r" + i))
                    .timeout(Duration.ofSeconds(10))
                    .POST(HttpRequest.BodyPublishers.ofString("body-" + i)).build();
            responses.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
        }
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> response = responses.get(i).get();
            assertEquals(HttpClient.Version.HTTP_2, response.version());
            assertEquals(200, response.statusCode());
            assertTrue(response.body().startsWith("POST /r" + i + "\n"), response.body());
            assertTrue(response.body().endsWith("\nbody-" + i), response.body());
        }
    }

    @Test
    void h2loadCompletesEveryRequest() throws IOException {
        TestPki.Result result = TestPki.exec(List.of("h2load", "-n", "200", "-c", "2", "-m", "10",
                "https://127.0.0.1:" + https.port() + "/size/1024"), null, 30);
        assertEquals(0, result.exit(), result.output());
        assertTrue(result.output().contains("200 succeeded, 0 failed, 0 errored"), result.output());
        assertTrue(result.output().contains("Application protocol: h2"), result.output());
    }
}
