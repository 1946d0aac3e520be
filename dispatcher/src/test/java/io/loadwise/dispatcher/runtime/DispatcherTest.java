package io.loadwise.dispatcher.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.dispatcher.testsupport.Configs;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.testsupport.EchoServer;
import io.loadwise.testsupport.TestFirstUsablePolicy;
import io.loadwise.testsupport.TestRoundRobinPolicy;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DispatcherTest {

    private static Transport transport;

    @TempDir
    Path dir;

    private final List<EchoServer> backends = new ArrayList<>();
    private Path file;
    private Dispatcher dispatcher;

    @BeforeAll
    static void startTransport() {
        transport = new Transport(2);
    }

    @AfterAll
    static void stopTransport() {
        transport.close();
    }

    @BeforeEach
    void startDispatcher() throws Exception {
        for (int i = 0; i < 3; i++) {
            backends.add(new EchoServer());
        }
        LoadwiseConfig config = Configs.config(Configs.tcp("web", TestRoundRobinPolicy.ID,
                Configs.nodes(backends.get(0).address(), backends.get(1).address(), backends.get(2).address())));
        file = dir.resolve("loadwise.json");
        ConfigStore store = new ConfigStore(file);
        store.write(config);
        dispatcher = new Dispatcher(store.load(), store, PolicyRegistry.load(), transport, new ModeListenerFactory());
        dispatcher.start("test-token-0123456789", false);
    }

    @AfterEach
    void stop() throws IOException {
        dispatcher.close();
        for (EchoServer b : backends) {
            b.close();
        }
    }

    private static String echo(InetSocketAddress address, String text) throws IOException {
        try (Socket s = new Socket(address.getAddress(), address.getPort())) {
            s.setSoTimeout(5_000);
            s.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
            s.shutdownOutput();
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private List<Integer> accepted() {
        List<Integer> counts = new ArrayList<>();
        backends.forEach(b -> counts.add(b.accepted()));
        return counts;
    }

    @Test
    void switchesThePolicyLiveAndPersistsIt() throws Exception {
        InetSocketAddress web = dispatcher.boundAddress("web");
        for (int i = 0; i < 3; i++) {
            assertEquals("a" + i, echo(web, "a" + i));
        }
        assertEquals(List.of(1, 1, 1), accepted());

        dispatcher.switchPolicy("web", TestFirstUsablePolicy.ID, Map.of());
        for (int i = 0; i < 3; i++) {
            assertEquals("b" + i, echo(web, "b" + i));
        }
        assertEquals(List.of(4, 1, 1), accepted(), "every new connection goes to the first node");
        assertEquals(web, dispatcher.boundAddress("web"), "the listener was not restarted");
        assertEquals(TestFirstUsablePolicy.ID, dispatcher.cluster("web").policy().id());
        assertEquals(TestFirstUsablePolicy.ID, dispatcher.cluster("web").config().policy());
        assertEquals(TestFirstUsablePolicy.ID, ConfigLoader.load(file).clusters().get(0).policy());
    }

    @Test
    void aRejectedChangeLeavesFileAndRuntimeAlone() throws Exception {
        byte[] before = Files.readAllBytes(file);
        ConfigValidationException unknown = assertThrows(ConfigValidationException.class,
                () -> dispatcher.switchPolicy("web", "fastest", Map.of()));
        assertTrue(unknown.errors().size() == 1
                && unknown.errors().get(0).startsWith("clusters[0].policy: unknown policy 'fastest', known policies: "),
                unknown.getMessage());
        ConfigValidationException weight = assertThrows(ConfigValidationException.class,
                () -> dispatcher.updateNode("web", "n2", null, 0, null));
        assertEquals(List.of("clusters[0].nodes[1].weight: 0 out of range 1..1000"), weight.errors());
        ConfigValidationException agent = assertThrows(ConfigValidationException.class,
                () -> dispatcher.switchPolicy("web", "test-agent", Map.of()));
        assertTrue(agent.getMessage().contains("needs node agent metrics"), agent.getMessage());
        java.util.Map<String, Double> nullOption = new java.util.HashMap<>();
        nullOption.put("threshold", null);
        ConfigValidationException nullValue = assertThrows(ConfigValidationException.class,
                () -> dispatcher.switchPolicy("web", "round-robin", nullOption));
        assertEquals(List.of("clusters[0].policyOptions.threshold: missing value"), nullValue.errors());
        ConfigValidationException missing = assertThrows(ConfigValidationException.class,
                () -> dispatcher.updateNode("nope", "n1", false, null, null));
        assertEquals(List.of("cluster 'nope': no such cluster"), missing.errors());

        assertArrayEquals(before, Files.readAllBytes(file));
        assertFalse(Files.exists(dir.resolve("loadwise.json.bak")));
        assertEquals(TestRoundRobinPolicy.ID, dispatcher.cluster("web").policy().id());
        assertEquals(1, dispatcher.cluster("web").node("n2").weight());
    }

    @Test
    void disablingANodeTakesItOutAndIsPersisted() throws Exception {
        dispatcher.updateNode("web", "n1", false, 5, null);
        InetSocketAddress web = dispatcher.boundAddress("web");
        for (int i = 0; i < 4; i++) {
            echo(web, "x");
        }
        assertEquals(List.of(0, 2, 2), accepted());
        ClusterConfig saved = ConfigLoader.load(file).clusters().get(0);
        assertEquals(false, saved.nodes().get(0).enabled());
        assertEquals(5, saved.nodes().get(0).weight());
        assertEquals(5, dispatcher.cluster("web").node("n1").weight());

        dispatcher.updateNode("web", "n2", null, null, true);
        echo(web, "x");
        echo(web, "x");
        assertEquals(List.of(0, 2, 4), accepted(), "a draining node takes no new connections");
        assertEquals(null, ConfigLoader.load(file).clusters().get(0).nodes().get(1).enabled(), "drain is not persisted");
    }

    @Test
    void createsUpdatesAndDeletesClusters() throws Exception {
        ClusterConfig api = Configs.tcp("api", TestFirstUsablePolicy.ID, Configs.nodes(backends.get(2).address()));
        dispatcher.createCluster(api);
        InetSocketAddress apiAddress = dispatcher.boundAddress("api");
        assertEquals("hi", echo(apiAddress, "hi"));
        assertEquals(List.of(0, 0, 1), accepted());
        assertEquals(List.of("web", "api"), names(ConfigLoader.load(file)));

        ClusterConfig moved = Configs.tcp("api", TestFirstUsablePolicy.ID, Configs.nodes(backends.get(1).address()));
        dispatcher.updateCluster("api", moved);
        assertEquals("there", echo(dispatcher.boundAddress("api"), "there"));
        assertEquals(List.of(0, 1, 1), accepted(), "the rebuilt cluster uses its new node");
        assertEquals(List.of("web", "api"), names(dispatcher.config()));
        assertEquals(backends.get(1).address(), ConfigLoader.load(file).clusters().get(1).nodes().get(0).address());

        InetSocketAddress last = dispatcher.boundAddress("api");
        dispatcher.deleteCluster("api");
        assertNull(dispatcher.cluster("api"));
        assertThrows(ConnectException.class, () -> new Socket(last.getAddress(), last.getPort()).close());
        assertEquals(List.of("web"), names(ConfigLoader.load(file)));
    }

    @Test
    void aDuplicateClusterIsRejected() {
        ClusterConfig again = Configs.tcp("web", TestFirstUsablePolicy.ID, Configs.nodes(backends.get(0).address()));
        ConfigValidationException e = assertThrows(ConfigValidationException.class, () -> dispatcher.createCluster(again));
        assertEquals(List.of("clusters[1].name: duplicate cluster name 'web' (also clusters[0])"), e.errors());
        assertEquals(1, dispatcher.clusters().size());
    }

    @Test
    void aListenerThatCannotBindRollsTheChangeBack() throws Exception {
        byte[] before = Files.readAllBytes(file);
        InetSocketAddress web = dispatcher.boundAddress("web");
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            ClusterConfig old = dispatcher.config().clusters().get(0);
            ClusterConfig clash = ClusterConfig.builder().name("web").mode(Mode.TCP)
                    .listen("127.0.0.1:" + taken.getLocalPort()).policy(old.policy()).nodes(old.nodes()).build();
            ConfigValidationException e = assertThrows(ConfigValidationException.class,
                    () -> dispatcher.updateCluster("web", clash));
            assertTrue(e.getMessage().startsWith("clusters[0].listen: cluster web: cannot listen on 127.0.0.1:"),
                    e.getMessage());
        }
        assertArrayEquals(before, Files.readAllBytes(file));
        InetSocketAddress now = dispatcher.boundAddress("web");
        assertNotEquals(null, now);
        assertEquals("still here", echo(now, "still here"));
        assertEquals("web", dispatcher.clusters().get(0).name());
        assertTrue(web.getPort() > 0);
    }

    @Test
    void keepsPerSecondHistoryAndTotals() throws Exception {
        InetSocketAddress web = dispatcher.boundAddress("web");
        for (int i = 0; i < 3; i++) {
            echo(web, "abc");
        }
        Await.until("tunnels closed", () -> dispatcher.cluster("web").counters().activeConnections() == 0);
        assertEquals(3, dispatcher.totals("web").completed());
        assertEquals(9, dispatcher.totals("web").bytesIn());
        dispatcher.metricsHistory().sample();
        Await.until("history recorded", () -> !dispatcher.history("web").isEmpty());
        double completed = 0;
        for (var s : dispatcher.history("web")) {
            completed += s.throughput();
        }
        assertTrue(completed > 0, "the interval with the tunnels shows throughput");
        assertFalse(dispatcher.nodeHistory("web", "n1").isEmpty());
        assertNull(dispatcher.totals("nope"));
    }

    @Test
    void runsHttpClustersWithTheL7Proxy() throws Exception {
        com.sun.net.httpserver.HttpServer node = com.sun.net.httpserver.HttpServer.create(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        node.createContext("/", exchange -> {
            byte[] body = ("hello from node, " + exchange.getRequestURI()).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        node.start();
        try {
            ClusterConfig http = ClusterConfig.builder().name("shop").mode(Mode.HTTP).listen("127.0.0.1:0")
                    .policy("round-robin").nodes(Configs.nodes("127.0.0.1:" + node.getAddress().getPort())).build();
            dispatcher.createCluster(http);
            InetSocketAddress shop = dispatcher.boundAddress("shop");
            java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
            java.net.http.HttpResponse<String> response = client.send(java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create("http://127.0.0.1:" + shop.getPort() + "/cart?id=7")).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode());
            assertEquals("hello from node, /cart?id=7", response.body());
            assertEquals(Mode.HTTP, ConfigLoader.load(file).clusters().get(1).mode());
        } finally {
            node.stop(0);
        }
    }

    @Test
    void httpClustersAreMonitoredAndTheirPiggybackedLoadReportsReachTheNodes() throws Exception {
        com.sun.net.httpserver.HttpServer node = com.sun.net.httpserver.HttpServer.create(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        node.createContext("/", exchange -> {
            if (exchange.getRequestURI().getPath().startsWith("/loadwise-agent/")) {
                exchange.sendResponseHeaders(404, -1); // no agent installed: polls fail
                exchange.close();
                return;
            }
            exchange.getResponseHeaders().add("endpoint-load-metrics",
                    "TEXT cpu_utilization=0.25,named_metrics.jvm_heap_used=0.5");
            exchange.sendResponseHeaders(200, 2);
            exchange.getResponseBody().write("ok".getBytes(StandardCharsets.UTF_8));
            exchange.close();
        });
        node.start();
        try {
            // round-robin first: a node without an agent would be excluded by jvm-aware once samples expire.
            ClusterConfig http = ClusterConfig.builder().name("shop").mode(Mode.HTTP).listen("127.0.0.1:0")
                    .policy("round-robin").agentPollIntervalMs(100)
                    .nodes(Configs.nodes("127.0.0.1:" + node.getAddress().getPort())).build();
            dispatcher.createCluster(http);
            InetSocketAddress shop = dispatcher.boundAddress("shop");
            java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient().send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + shop.getPort() + "/"))
                            .build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals("ok", response.body());
            assertFalse(response.headers().firstValue("endpoint-load-metrics").isPresent(), "stripped by the proxy");

            var n1 = dispatcher.cluster("shop").node("n1");
            Await.until("the piggybacked report reached the node", () -> n1.latestAgentSample() != null
                    && Double.valueOf(50.0).equals(n1.latestAgentSample().metrics().get("JVM_HEAP_USED%")));
            assertEquals(1, dispatcher.agentStats("shop", "n1").piggybackReports());
            assertEquals(0, dispatcher.agentStats("shop", "n1").pollsFailed(), "no polling for round-robin");

            dispatcher.switchPolicy("shop", "jvm-aware", Map.of());
            Await.until("the agent is polled once the policy reads agent metrics",
                    () -> dispatcher.agentStats("shop", "n1").pollsFailed() > 0);
            assertNull(dispatcher.agentStats("web", "n1"), "tcp clusters are not monitored");
            assertNull(dispatcher.agentStats("shop", "n9"));
        } finally {
            node.stop(0);
        }
    }

    private static List<String> names(LoadwiseConfig config) {
        List<String> names = new ArrayList<>();
        config.clusters().forEach(c -> names.add(c.name()));
        return names;
    }
}
