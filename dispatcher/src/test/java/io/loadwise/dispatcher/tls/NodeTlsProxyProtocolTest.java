package io.loadwise.dispatcher.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.loadwise.dispatcher.config.NodeTlsConfig;
import io.loadwise.testsupport.TestPki;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sendProxyProtocol} with {@code nodeTls}: the header must come before the TLS ClientHello, as NGINX
 * ({@code listen … ssl proxy_protocol}) and HAProxy ({@code accept-proxy} on an ssl bind) read it. NGINX logs the
 * client the header named (curl connects from 127.0.0.2, Loadwise from 127.0.0.1) and the TLS version, and both
 * requests come on one connection (the client's private one, reused).
 */
class NodeTlsProxyProtocolTest {

    private static final Path NGINX = Path.of("/usr/sbin/nginx");

    @TempDir
    Path dir;

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static String read(Path p) {
        try {
            return Files.exists(p) ? Files.readString(p) : "";
        } catch (IOException e) {
            return e.toString();
        }
    }

    @Test
    void theHeaderGoesAheadOfTheTlsHandshake() throws Exception {
        assumeTrue(Files.isExecutable(NGINX), "nginx not installed");
        TestPki pki = new TestPki(dir);
        TestPki.Issued cert = pki.issue("node", "node", "node.internal"); // SAN IP:127.0.0.1
        int nodePort = freePort();
        Path access = dir.resolve("access.log");
        Path log = dir.resolve("error.log");
        Files.createDirectories(dir.resolve("logs"));
        Path conf = dir.resolve("nginx.conf");
        Files.writeString(conf, String.join("\n", "daemon off;", "master_process off;",
                "pid " + dir.resolve("nginx.pid") + ";", "error_log " + log + ";", "events { worker_connections 64; }",
                "http {", "  log_format pp '$proxy_protocol_addr $ssl_protocol $connection $request_uri';",
                "  access_log " + access + " pp;",
                "  client_body_temp_path " + dir + "/body; proxy_temp_path " + dir + "/proxy;",
                "  fastcgi_temp_path " + dir + "/fcgi; uwsgi_temp_path " + dir + "/uwsgi; scgi_temp_path " + dir + "/scgi;",
                "  server { listen 127.0.0.1:" + nodePort + " ssl proxy_protocol;",
                "    ssl_certificate " + cert.certificate() + "; ssl_certificate_key " + cert.key() + ";",
                "    location / { return 200 'ok'; } }", "}", ""));
        Process nginx = new ProcessBuilder(NGINX.toString(), "-c", conf.toString(), "-p", dir.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("nginx.out").toFile()).start();
        try {
            long until = System.nanoTime() + 10_000_000_000L;
            while (true) {
                assertTrue(nginx.isAlive(), () -> "exited: " + read(log) + read(dir.resolve("nginx.out")));
                try (Socket s = new Socket("127.0.0.1", nodePort)) {
                    break;
                } catch (IOException notYet) {
                    assertTrue(System.nanoTime() < until, "nginx not listening: " + read(log));
                    Thread.onSpinWait();
                }
            }
            try (TlsProxy proxy = new TlsProxy("127.0.0.1:" + nodePort,
                    b -> b.nodeTls(new NodeTlsConfig(pki.caCert.toString(), null)).sendProxyProtocol("v2"))) {
                String url = "http://127.0.0.1:" + proxy.port();
                TestPki.Result result = TestPki.exec(List.of("curl", "-sS", "-i", "--max-time", "10", "--interface",
                        "127.0.0.2", url + "/one", url + "/two"), null, 20);
                assertEquals(0, result.exit(), result.output());
                assertEquals(2, result.output().split("HTTP/1.1 200", -1).length - 1, result.output());
            }
            long logged = System.nanoTime() + 5_000_000_000L;
            while (read(access).lines().count() < 2 && System.nanoTime() < logged) {
                Thread.onSpinWait();
            }
            List<String[]> lines = read(access).lines().map(l -> l.split(" ")).toList();
            assertEquals(2, lines.size(), read(access));
            for (String[] f : lines) {
                assertEquals("127.0.0.2", f[0], read(access));
                assertTrue(f[1].startsWith("TLSv1."), read(access));
            }
            assertEquals(lines.get(0)[2], lines.get(1)[2], () -> "one node connection: " + read(access));
            assertEquals(List.of("/one", "/two"), lines.stream().map(f -> f[3]).toList());
        } finally {
            nginx.destroy();
            nginx.waitFor();
        }
    }
}
