package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.ProxyProtocolConfig;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.tcp.TcpProxyServer;
import io.loadwise.dispatcher.testsupport.Configs;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.testsupport.TestRoundRobinPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Real peers (Debian packages, listed in .ci/test-packages): HAProxy {@code send-proxy}/{@code send-proxy-v2} in
 * front of Loadwise, and NGINX {@code listen … proxy_protocol} as a node behind a tcp cluster with
 * {@code sendProxyProtocol}. The client connects from 127.0.0.2 or 127.0.0.3 while every hop in between is
 * 127.0.0.1, so only a header that was read and passed on can name it. Skipped only when a binary is absent.
 */
class ProxyProtocolRealPeersTest {

    private static final Path HAPROXY = Path.of("/usr/sbin/haproxy");
    private static final Path NGINX = Path.of("/usr/sbin/nginx");

    @TempDir
    Path dir;

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static void awaitListening(int port, Process process, Path log) throws Exception {
        long until = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < until) {
            assertTrue(process.isAlive(), () -> "exited: " + read(log));
            try (Socket s = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException notYet) {
                Thread.onSpinWait();
            }
        }
        throw new AssertionError("not listening on " + port + ": " + read(log));
    }

    private static String read(Path p) {
        try {
            return Files.exists(p) ? Files.readString(p) : "";
        } catch (IOException e) {
            return e.toString();
        }
    }

    /** One request from {@code from} to {@code port}; the response's status line. */
    private static String get(String from, int port) throws IOException {
        try (Socket s = new Socket()) {
            s.bind(new InetSocketAddress(from, 0));
            s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            s.setSoTimeout(5_000);
            s.getOutputStream().write("GET / HTTP/1.1\r\nHost: shop\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = s.getInputStream();
            String all = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            return all.isEmpty() ? "" : all.substring(0, all.indexOf('\r'));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"send-proxy", "send-proxy-v2"})
    void haproxyInFrontNamesTheClient(String send) throws Exception {
        assumeTrue(Files.isExecutable(HAPROXY), "haproxy not installed");
        TestBackend backend = new TestBackend("a");
        ProxyFixture proxy = new ProxyFixture();
        proxy.proxyProtocol = new ProxyProtocolConfig(send.endsWith("v2") ? "v2" : "v1", List.of("127.0.0.1"), 2_000);
        proxy.node("a", backend.address()).start();
        int front = freePort();
        Path cfg = dir.resolve("haproxy.cfg");
        Path log = dir.resolve("haproxy.log");
        Files.writeString(cfg, String.join("\n", "global", "  maxconn 100", "defaults", "  mode tcp",
                "  timeout connect 2s", "  timeout client 10s", "  timeout server 10s",
                "frontend f", "  bind 127.0.0.1:" + front, "  default_backend b",
                "backend b", "  server s1 127.0.0.1:" + proxy.address.getPort() + " " + send, ""));
        Process haproxy = new ProcessBuilder(HAPROXY.toString(), "-f", cfg.toString(), "-db")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            awaitListening(front, haproxy, log);
            backend.received.clear(); // (awaitListening's probe sends no request)
            assertEquals("HTTP/1.1 200 OK", get("127.0.0.2", front));
            assertEquals("127.0.0.2", backend.received.poll().get("x-forwarded-for"));
        } finally {
            haproxy.destroy();
            haproxy.waitFor();
            proxy.close();
            backend.close();
        }
    }

    /** NGINX on a free port, {@code listen … proxy_protocol}, logging {@code logFormat} to {@code access}. */
    private Process startNginx(int nodePort, Path access, String logFormat) throws Exception {
        Path log = dir.resolve("error.log");
        Files.createDirectories(dir.resolve("logs"));
        Path conf = dir.resolve("nginx.conf");
        Files.writeString(conf, String.join("\n", "daemon off;", "master_process off;", "pid " + dir.resolve("nginx.pid") + ";",
                "error_log " + log + ";", "events { worker_connections 64; }", "http {",
                "  log_format pp '" + logFormat + "';",
                "  access_log " + access + " pp;",
                "  client_body_temp_path " + dir + "/body; proxy_temp_path " + dir + "/proxy;",
                "  fastcgi_temp_path " + dir + "/fcgi; uwsgi_temp_path " + dir + "/uwsgi; scgi_temp_path " + dir + "/scgi;",
                "  server { listen 127.0.0.1:" + nodePort + " proxy_protocol; location / { return 200 'ok'; } }",
                "}", ""));
        Process nginx = new ProcessBuilder(NGINX.toString(), "-c", conf.toString(), "-p", dir.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("nginx.out").toFile()).start();
        awaitListening(nodePort, nginx, log);
        return nginx;
    }

    private static void awaitLines(Path access, int lines) {
        long until = System.nanoTime() + 5_000_000_000L;
        while (read(access).lines().filter(l -> l.contains("GET /")).count() < lines && System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }

    @Test
    void nginxBehindATcpClusterLogsTheOriginalClient() throws Exception {
        assumeTrue(Files.isExecutable(NGINX), "nginx not installed");
        int nodePort = freePort();
        Path access = dir.resolve("access.log");
        Process nginx = startNginx(nodePort, access, "$proxy_protocol_addr $remote_addr \"$request\" $status");
        Transport transport = new Transport(1);
        TcpProxyServer server = null;
        try {
            ClusterConfig config = Configs.tcp("pp", TestRoundRobinPolicy.ID, Configs.nodes("127.0.0.1:" + nodePort))
                    .toBuilder().sendProxyProtocol("v2").build();
            server = new TcpProxyServer(new VirtualCluster(config, PolicyRegistry.load(), System::nanoTime), transport);
            int port = server.start().getPort();
            assertEquals("HTTP/1.1 200 OK", get("127.0.0.3", port));
            awaitLines(access, 1);
            assertTrue(read(access).startsWith("127.0.0.3 127.0.0.1 \"GET / HTTP/1.1\" 200"), read(access));
        } finally {
            if (server != null) {
                server.close();
            }
            transport.close();
            nginx.destroy();
            nginx.waitFor();
        }
    }

    /**
     * An http cluster with {@code sendProxyProtocol}: two clients' requests interleaved on keep-alive connections.
     * NGINX logs each request with the client its connection's header named, and its connection's serial number
     * and request count: each client's requests share one node connection, the two clients never do.
     */
    @ParameterizedTest
    @ValueSource(strings = {"v1", "v2"})
    void nginxBehindAnHttpClusterSeesEachClientOnItsOwnConnections(String send) throws Exception {
        assumeTrue(Files.isExecutable(NGINX), "nginx not installed");
        int nodePort = freePort();
        Path access = dir.resolve("access.log");
        Process nginx = startNginx(nodePort, access, "$proxy_protocol_addr $connection $connection_requests $request_uri");
        ProxyFixture proxy = new ProxyFixture();
        proxy.sendProxyProtocol = send;
        try {
            proxy.node("nginx", "127.0.0.1:" + nodePort).start();
            try (RawHttpClient a = new RawHttpClient(proxy.address, "127.0.0.2");
                    RawHttpClient b = new RawHttpClient(proxy.address, "127.0.0.3")) {
                for (int i = 1; i <= 3; i++) {
                    assertEquals(200, a.get("/a" + i).status());
                    assertEquals(200, b.get("/b" + i).status());
                }
            }
            awaitLines(access, 6);
            java.util.Map<String, String[]> byUri = new java.util.HashMap<>();
            read(access).lines().map(l -> l.split(" ")).forEach(f -> byUri.put(f[3], f));
            for (String client : List.of("a", "b")) {
                String addr = client.equals("a") ? "127.0.0.2" : "127.0.0.3";
                for (int i = 1; i <= 3; i++) {
                    String[] f = byUri.get("/" + client + i);
                    assertEquals(addr, f[0], () -> read(access));
                    assertEquals(byUri.get("/" + client + 1)[1], f[1], () -> "one node connection: " + read(access));
                    assertEquals(String.valueOf(i), f[2], () -> read(access));
                }
            }
            assertTrue(!byUri.get("/a1")[1].equals(byUri.get("/b1")[1]), () -> read(access));
            proxy.assertSettled();
        } finally {
            proxy.close();
            nginx.destroy();
            nginx.waitFor();
        }
    }
}
