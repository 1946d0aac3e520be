package io.loadwise.dispatcher.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.metrics.CounterReading;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.dispatcher.testsupport.Configs;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.testsupport.EchoServer;
import io.loadwise.testsupport.TestFirstUsablePolicy;
import io.loadwise.testsupport.TestRoundRobinPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class TcpProxyServerTest {

    private static Transport transport;
    private final List<AutoCloseable> resources = new ArrayList<>();

    @BeforeAll
    static void startTransport() {
        transport = new Transport(2);
    }

    @AfterAll
    static void stopTransport() {
        transport.close();
    }

    @AfterEach
    void closeResources() throws Exception {
        for (AutoCloseable r : resources) {
            r.close();
        }
    }

    private EchoServer echo() throws IOException {
        EchoServer server = new EchoServer();
        resources.add(server);
        return server;
    }

    private record Proxy(VirtualCluster cluster, InetSocketAddress address) {
        Socket connect() throws IOException {
            Socket socket = new Socket(address.getAddress(), address.getPort());
            socket.setSoTimeout(5_000);
            return socket;
        }
    }

    private Proxy proxy(ClusterConfig config) throws IOException {
        VirtualCluster cluster = new VirtualCluster(config, PolicyRegistry.load(), System::nanoTime);
        TcpProxyServer server = new TcpProxyServer(cluster, transport);
        InetSocketAddress bound = server.start();
        resources.add(server);
        assertEquals(bound, server.boundAddress());
        return new Proxy(cluster, bound);
    }

    private static String exchange(Socket socket, String line) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        return readLine(socket.getInputStream());
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0 && c != '\n') {
            sb.append((char) c);
        }
        return sb.toString();
    }

    @Test
    void echoesThroughTheTunnelAndCountsIt() throws Exception {
        EchoServer backend = echo();
        Proxy proxy = proxy(Configs.tcp("echo", TestRoundRobinPolicy.ID, Configs.nodes(backend.address())));
        try (Socket client = proxy.connect()) {
            assertEquals("hello", exchange(client, "hello"));
            assertEquals("again", exchange(client, "again"));
            NodeState node = proxy.cluster().node("n1");
            assertEquals(1, node.activeConnections());
            assertEquals(1, proxy.cluster().counters().activeConnections());
        }
        Await.until("tunnel closed", () -> proxy.cluster().counters().activeConnections() == 0);
        CounterReading totals = proxy.cluster().counters().read();
        assertEquals(1, totals.connections());
        assertEquals(1, totals.completed());
        assertEquals(1, totals.selections());
        assertEquals(1, totals.connectWaits());
        assertEquals(12, totals.bytesIn());
        assertEquals(12, totals.bytesOut());
        assertEquals(0, proxy.cluster().node("n1").activeConnections());
        assertEquals(12, proxy.cluster().node("n1").counters().read().bytesOut());
        Await.until("backend saw the close", () -> backend.ended() == 1);
    }

    @Test
    void roundRobinSpreadsConnectionsOverThreeBackends() throws Exception {
        EchoServer a = echo();
        EchoServer b = echo();
        EchoServer c = echo();
        Proxy proxy = proxy(Configs.tcp("rr", TestRoundRobinPolicy.ID,
                Configs.nodes(a.address(), b.address(), c.address())));
        for (int i = 0; i < 9; i++) {
            try (Socket client = proxy.connect()) {
                assertEquals("ping" + i, exchange(client, "ping" + i));
            }
        }
        assertEquals(List.of(3, 3, 3), List.of(a.accepted(), b.accepted(), c.accepted()));
        for (NodeState node : proxy.cluster().nodes()) {
            assertEquals(3, node.counters().totalSelections(), node.name());
        }
    }

    @Test
    void halfCloseReachesTheBackendWhichCanStillReply() throws Exception {
        try (ServerSocket backend = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            Thread replier = new Thread(() -> {
                try (Socket s = backend.accept()) {
                    byte[] all = s.getInputStream().readAllBytes(); // returns at the client's FIN
                    OutputStream out = s.getOutputStream();
                    out.write(("got " + all.length + " bytes\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                } catch (IOException e) {
                    // the test fails on the client side
                }
            });
            replier.setDaemon(true);
            replier.start();
            Proxy proxy = proxy(Configs.tcp("half", TestRoundRobinPolicy.ID,
                    Configs.nodes("127.0.0.1:" + backend.getLocalPort())));
            try (Socket client = proxy.connect()) {
                client.getOutputStream().write(new byte[100_000]);
                client.shutdownOutput();
                InputStream in = client.getInputStream();
                assertEquals("got 100000 bytes", readLine(in));
                assertEquals(-1, in.read(), "the backend's close reaches the client");
            }
        }
    }

    @Test
    void aRefusedConnectMarksTheNodeDownAndUsesTheNextNode() throws Exception {
        EchoServer live = echo();
        Proxy proxy = proxy(Configs.tcp("failover", TestFirstUsablePolicy.ID, null, 60_000,
                Configs.nodes(Configs.deadAddress(), live.address())));
        try (Socket client = proxy.connect()) {
            assertEquals("still served", exchange(client, "still served"));
        }
        NodeState dead = proxy.cluster().node("n1");
        assertTrue(dead.connectDown());
        assertFalse(dead.healthy());
        assertEquals(1, dead.counters().totalSelections());
        try (Socket client = proxy.connect()) {
            assertEquals("direct", exchange(client, "direct"));
        }
        assertEquals(1, dead.counters().totalSelections(), "a node that is down is not picked again");
        assertEquals(2, live.accepted());
    }

    @Test
    void whenEveryNodeIsDownTheClientIsClosedAndNodesAreRetriedAfterTheInterval() throws Exception {
        Proxy proxy = proxy(Configs.tcp("dead", TestRoundRobinPolicy.ID, null, 2_500,
                Configs.nodes(Configs.deadAddress(), Configs.deadAddress())));
        VirtualCluster cluster = proxy.cluster();
        try (Socket client = proxy.connect()) {
            assertEquals(-1, client.getInputStream().read(), "closed without a byte");
        }
        for (NodeState node : cluster.nodes()) {
            assertTrue(node.connectDown(), node.name());
            assertEquals(1, node.counters().totalSelections(), node.name());
        }
        Await.until("failed tunnel counted", () -> cluster.counters().failedRequests() == 1);

        Await.until("retry interval over", Duration.ofSeconds(10),
                () -> !cluster.node("n1").connectDown() && !cluster.node("n2").connectDown());
        try (Socket client = proxy.connect()) {
            assertEquals(-1, client.getInputStream().read());
        }
        assertEquals(2, cluster.counters().totalSelections() - 2, "both nodes were tried again");
        Await.until("second failure counted", () -> cluster.counters().failedRequests() == 2);
    }

    @Test
    void anIdleTunnelIsClosedOnBothSides() throws Exception {
        EchoServer backend = echo();
        Proxy proxy = proxy(Configs.tcp("idle", TestRoundRobinPolicy.ID, 300, null, Configs.nodes(backend.address())));
        try (Socket client = proxy.connect()) {
            assertEquals("x", exchange(client, "x"));
            long start = System.nanoTime();
            assertEquals(-1, client.getInputStream().read(), "the proxy closes the idle connection");
            assertTrue(System.nanoTime() - start >= 250_000_000L, "not before the idle timeout");
        }
        Await.until("backend connection closed too", () -> backend.ended() == 1);
    }

    @Test
    void aBackendThatSpeaksFirstIsRelayedAtOnce() throws Exception {
        // Server-first protocols (SMTP, FTP, MySQL) send a banner before the client says anything.
        try (ServerSocket backend = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            Thread banner = new Thread(() -> {
                for (int k = 0; k < 3; k++) {
                    try (Socket s = backend.accept()) {
                        s.getOutputStream().write(("220 ready " + k + "\n").getBytes(StandardCharsets.UTF_8));
                        s.getOutputStream().flush();
                        s.getInputStream().read(); // until the client closes
                    } catch (IOException e) {
                        // the client side reports failures
                    }
                }
            });
            banner.setDaemon(true);
            banner.start();
            Proxy proxy = proxy(Configs.tcp("banner", TestRoundRobinPolicy.ID,
                    Configs.nodes("127.0.0.1:" + backend.getLocalPort())));
            for (int k = 0; k < 3; k++) {
                try (Socket client = proxy.connect()) {
                    assertEquals("220 ready " + k, readLine(client.getInputStream()));
                }
            }
        }
    }

    @Test
    void aListenAddressInUseIsAClearError() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            ClusterConfig config = ClusterConfig.builder().name("busy").mode(io.loadwise.dispatcher.config.Mode.TCP)
                    .listen("127.0.0.1:" + taken.getLocalPort()).policy(TestRoundRobinPolicy.ID)
                    .nodes(Configs.nodes("127.0.0.1:9")).build();
            VirtualCluster cluster = new VirtualCluster(config, PolicyRegistry.load(), System::nanoTime);
            TcpProxyServer server = new TcpProxyServer(cluster, transport);
            IOException e = assertThrows(IOException.class, server::start);
            assertTrue(e.getMessage().startsWith("cluster busy: cannot listen on 127.0.0.1:" + taken.getLocalPort()),
                    e.getMessage());
        }
    }

    @Test
    void aClosedListenerRefusesNewClients() throws Exception {
        EchoServer backend = echo();
        Proxy proxy = proxy(Configs.tcp("closing", TestRoundRobinPolicy.ID, Configs.nodes(backend.address())));
        ((TcpProxyServer) resources.get(resources.size() - 1)).close();
        assertThrows(java.net.ConnectException.class, () -> proxy.connect().close());
    }
}
