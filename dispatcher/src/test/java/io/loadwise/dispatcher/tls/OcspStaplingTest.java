package io.loadwise.dispatcher.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.TlsConfig;
import io.loadwise.dispatcher.runtime.HttpNodes;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.dispatcher.testsupport.Configs;
import io.loadwise.dispatcher.testsupport.DispatcherUnderTest;
import io.loadwise.testsupport.TestPki;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OCSP stapling with real peers (issue 34, item 5): {@code openssl ocsp} as the responder the certificate names,
 * {@code openssl s_client -status} as the client. The staple is served while current; the responder goes away, and
 * once the last response's {@code nextUpdate} (one minute here) has passed, handshakes get no staple rather than a
 * stale one.
 */
class OcspStaplingTest {

    @TempDir
    Path dir;
    private Process responder;
    private DispatcherUnderTest loadwise;
    private HttpNodes.Node node;

    @AfterEach
    void stop() {
        if (loadwise != null) {
            loadwise.close();
        }
        if (responder != null) {
            responder.destroyForcibly();
        }
        if (node != null) {
            node.close();
        }
    }

    @Test
    void staplesTheRespondersAnswerAndNeverAStaleOne() throws Exception {
        assumeTrue(ServerTls.canStaple(TlsProviders.preferred()), "BoringSSL did not load: nothing can staple");
        int ocspPort;
        try (ServerSocket s = new ServerSocket(0)) {
            ocspPort = s.getLocalPort();
        }
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
                "-subj", "/CN=Loadwise OCSP test CA");
        Files.writeString(dir.resolve("leaf.ext"), "[v3]\nsubjectAltName = DNS:localhost\nauthorityInfoAccess = "
                + "OCSP;URI:http://127.0.0.1:" + ocspPort + "\n", StandardCharsets.US_ASCII);
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "leaf.key", "-out", "leaf.csr", "-subj", "/CN=localhost");
        openssl("x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out",
                "leaf.pem", "-days", "1", "-extfile", "leaf.ext", "-extensions", "v3");
        Files.writeString(dir.resolve("chain.pem"), Files.readString(dir.resolve("leaf.pem"))
                + Files.readString(dir.resolve("ca.pem")));
        String serial = openssl("x509", "-in", "leaf.pem", "-noout", "-serial").trim().replace("serial=", "");
        String end = openssl("x509", "-in", "leaf.pem", "-noout", "-enddate").trim().replace("notAfter=", "");
        java.time.ZonedDateTime notAfter = java.time.ZonedDateTime.parse(end.replaceAll(" +", " "),
                java.time.format.DateTimeFormatter.ofPattern("MMM d HH:mm:ss yyyy z", java.util.Locale.ROOT));
        Files.writeString(dir.resolve("index.txt"), "V\t" + notAfter.format(java.time.format.DateTimeFormatter
                .ofPattern("yyMMddHHmmss'Z'")) + "\t\t" + serial + "\tunknown\t/CN=localhost\n");
        responder = new ProcessBuilder("openssl", "ocsp", "-index", "index.txt", "-port", String.valueOf(ocspPort),
                "-rsigner", "ca.pem", "-rkey", "ca.key", "-CA", "ca.pem", "-nmin", "1", "-ignore_err")
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(dir.resolve("ocsp.log").toFile()).start();
        // not probed with a connection: openssl's responder serves one at a time and hangs on one that sends nothing
        Await.until("the OCSP responder listening", () -> logSays("waiting for OCSP client connections"));

        node = new HttpNodes.Node("n1");
        TlsConfig tls = new TlsConfig(dir.resolve("chain.pem").toString(), dir.resolve("leaf.key").toString(), null,
                null, null, null, null, null, null, null, true);
        LoadwiseConfig config = Configs.config(ClusterConfig.builder().name("shop").mode(Mode.HTTP)
                .listen("127.0.0.1:0").policy("round-robin").tls(tls).nodes(Configs.nodes(node.address())).build());
        loadwise = DispatcherUnderTest.start(config);
        int port = loadwise.boundAddress("shop").getPort();

        Await.until("a good staple served", Duration.ofSeconds(30), () -> status(port).contains("Cert Status: good"));
        String stapled = status(port);
        assertTrue(stapled.contains("OCSP Response Status: successful"), stapled);
        assertTrue(stapled.contains("Responder Id: CN = Loadwise OCSP test CA"), stapled);

        responder.destroyForcibly();
        responder.waitFor(10, TimeUnit.SECONDS);
        Await.until("no staple once the last one's nextUpdate passed", Duration.ofSeconds(100),
                () -> status(port).contains("OCSP response: no response sent"));
        String handshake = status(port);
        assertTrue(handshake.contains("Verify return code") || handshake.contains("CONNECTED"),
                "the listener still serves: " + handshake);
        assertEquals(false, handshake.contains("Cert Status: good"));
    }

    private boolean logSays(String text) {
        try {
            return Files.readString(dir.resolve("ocsp.log")).contains(text);
        } catch (IOException e) {
            return false;
        }
    }

    /** What {@code openssl s_client -status} shows of a handshake with the listener. */
    private static String status(int port) {
        try {
            return TestPki.exec(List.of("openssl", "s_client", "-connect", "127.0.0.1:" + port, "-servername",
                    "localhost", "-status"), "", 20).output();
        } catch (IOException e) {
            return e.toString();
        }
    }

    private String openssl(String... args) throws IOException {
        List<String> command = new java.util.ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("openssl " + String.join(" ", args) + ": " + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        return out;
    }
}
