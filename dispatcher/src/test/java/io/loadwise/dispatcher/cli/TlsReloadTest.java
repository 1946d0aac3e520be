package io.loadwise.dispatcher.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.ConfigValidator;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.runtime.Dispatcher;
import io.loadwise.dispatcher.runtime.ModeListenerFactory;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.dispatcher.tls.HeaderEchoNode;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.testsupport.TestPki;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * A configuration reload ({@code POST /api/reload} calls {@link Dispatcher#reload()}; so does SIGHUP, through
 * {@link ReloadSignal}, sent here to this JVM with {@code kill -HUP} as in {@link ReloadSignalTest}) also
 * re-reads the certificate files, without waiting for the file watcher (here set to its longest period, one
 * hour, so that only the reload can have done it): the replaced certificate is served to the next new
 * connection, and a connection opened before keeps its session and goes on serving requests.
 */
class TlsReloadTest {

    @TempDir
    Path dir;
    TestPki pki;
    Path cert;
    Path key;
    Path configFile;
    HeaderEchoNode node;
    Transport transport;
    Dispatcher dispatcher;
    SSLContext client;

    @BeforeEach
    void start() throws Exception {
        pki = new TestPki(Files.createDirectories(dir.resolve("pki")));
        TestPki.Issued first = pki.issue("first", "first.localhost", "localhost");
        cert = dir.resolve("server.pem");
        key = dir.resolve("server.key");
        Files.copy(first.certificate(), cert);
        Files.copy(first.key(), key);
        node = new HeaderEchoNode();
        configFile = dir.resolve("loadwise.json");
        Files.writeString(configFile, """
                {"clusters": [{"name": "secure", "mode": "http", "listen": "127.0.0.1:0", "policy": "round-robin",
                               "tls": {"certificate": "%s", "key": "%s", "reloadCheckMs": 3600000},
                               "nodes": [{"name": "a", "address": "%s"}]}]}
                """.formatted(cert, key, node.address()));
        PolicyRegistry policies = PolicyRegistry.load();
        LoadwiseConfig config = ConfigLoader.load(configFile);
        new ConfigValidator(policies).check(config);
        transport = new Transport(1);
        dispatcher = new Dispatcher(config, new ConfigStore(configFile), policies, transport, new ModeListenerFactory());
        dispatcher.start("test-token-0123456789", false);
        client = trusting(pki.caCert);
    }

    @AfterEach
    void stop() {
        if (dispatcher != null) {
            dispatcher.close();
        }
        if (transport != null) {
            transport.close();
        }
        if (node != null) {
            node.close();
        }
    }

    @Test
    void aReloadServesTheReplacedCertificateToNewConnectionsAndOpenOnesKeepTheirs() throws Exception {
        try (SSLSocket open = connect()) {
            assertEquals("CN=first.localhost", subject(open));
            assertEquals("HTTP/1.1 200 OK", get(open, 5));
            replaceCertificate("second.localhost");
            assertEquals("CN=first.localhost", subjectOfNewConnection(), "nothing re-reads the files by itself");

            dispatcher.reload();

            assertEquals("CN=second.localhost", subjectOfNewConnection());
            assertEquals("CN=first.localhost", subject(open), "the open connection keeps its session");
            assertEquals("HTTP/1.1 200 OK", get(open, 7), "and goes on serving");
            assertEquals("CN=second.localhost", dispatcher.clusterStatus("secure").listener().certificates().get(0).subject(),
                    "the status shows the certificate in use");
        }
    }

    @Test
    void aReloadWithAKeyThatDoesNotMatchIsRefusedAndTheOldPairStays() throws Exception {
        TestPki.Issued stray = pki.issue("stray", "stray.localhost", "localhost");
        Files.copy(stray.key(), key, StandardCopyOption.REPLACE_EXISTING); // the key only, not yet its certificate
        ConfigValidationException refused = assertThrows(ConfigValidationException.class, dispatcher::reload);
        assertTrue(String.join("\n", refused.errors()).contains("clusters[0].tls.key: "), refused.errors().toString());
        assertEquals("CN=first.localhost", subjectOfNewConnection());
    }

    @Test
    @EnabledOnOs({OS.LINUX, OS.MAC})
    void sighupReloadsTheCertificate() throws Exception {
        assumeFalse(HupIgnored.inThisProcess(), "this JVM ignores SIGHUP (nohup): no SIGHUP can reach it or its children");
        ReloadSignal.install(dispatcher);
        try (SSLSocket open = connect()) {
            assertEquals("CN=first.localhost", subject(open));
            replaceCertificate("by-signal.localhost");
            Process kill = new ProcessBuilder("kill", "-HUP", Long.toString(ProcessHandle.current().pid())).start();
            assertEquals(0, kill.waitFor(10, TimeUnit.SECONDS) ? kill.exitValue() : -1);
            Await.until("the certificate replaced on disk is served after SIGHUP",
                    () -> "CN=by-signal.localhost".equals(subjectOfNewConnectionUnchecked()));
            assertEquals("HTTP/1.1 200 OK", get(open, 3), "the connection opened before goes on serving");
            assertEquals("CN=first.localhost", subject(open));
        }
    }

    /** Key first, then certificate, as an operator would copy them. */
    private void replaceCertificate(String cn) throws IOException {
        TestPki.Issued renewed = pki.issue(cn, cn, "localhost");
        Files.copy(renewed.key(), key, StandardCopyOption.REPLACE_EXISTING);
        Files.copy(renewed.certificate(), cert, StandardCopyOption.REPLACE_EXISTING);
    }

    private SSLSocket connect() throws IOException {
        SSLSocket socket = (SSLSocket) client.getSocketFactory().createSocket("127.0.0.1",
                dispatcher.boundAddress("secure").getPort());
        socket.setSoTimeout(10_000);
        socket.startHandshake();
        return socket;
    }

    private static String subject(SSLSocket socket) throws IOException {
        return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSubjectX500Principal().getName();
    }

    private String subjectOfNewConnection() throws IOException {
        try (SSLSocket socket = connect()) {
            return subject(socket);
        }
    }

    private String subjectOfNewConnectionUnchecked() {
        try {
            return subjectOfNewConnection();
        } catch (IOException e) {
            return e.toString();
        }
    }

    /** One keep-alive request for a body of {@code size} bytes; returns the status line after reading it all. */
    private static String get(SSLSocket socket, int size) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(("GET /size/" + size + " HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed after " + head.toString(StandardCharsets.US_ASCII));
            }
            head.write(b);
        }
        String headers = head.toString(StandardCharsets.US_ASCII);
        assertTrue(headers.toLowerCase().contains("content-length: " + size + "\r\n"), headers);
        assertEquals("x".repeat(size), new String(in.readNBytes(size), StandardCharsets.US_ASCII));
        return headers.substring(0, headers.indexOf("\r\n"));
    }

    private static SSLContext trusting(Path caPem) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(caPem)) {
            trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }
}
