package io.loadwise.dispatcher.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.control.ReloadResult;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.runtime.HttpNodes.Node;
import io.loadwise.dispatcher.runtime.HttpNodes.StrictClient;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.dispatcher.testsupport.Configs;
import io.loadwise.policy.PolicyRegistry;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hot reload with real sockets: clients keep sending while the file changes under the dispatcher. */
class ReloadTest {

    private static Transport transport;

    @TempDir
    Path dir;

    private final List<Node> nodes = new ArrayList<>();
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
    void start() throws Exception {
        for (int i = 1; i <= 3; i++) {
            nodes.add(new Node("n" + i));
        }
        file = dir.resolve("loadwise.json");
        write(config(web(0, 1)));
        ConfigStore store = new ConfigStore(file);
        dispatcher = new Dispatcher(store.load(), store, PolicyRegistry.load(), transport, new ModeListenerFactory());
        dispatcher.start("test-token-0123456789", false);
    }

    @AfterEach
    void stop() {
        dispatcher.close();
        nodes.forEach(Node::close);
    }

    private ClusterConfig web(int... nodeIndexes) {
        return http("web", "127.0.0.1:0", nodeIndexes);
    }

    private ClusterConfig http(String name, String listen, int... nodeIndexes) {
        List<NodeConfig> list = new ArrayList<>();
        for (int i : nodeIndexes) {
            list.add(new NodeConfig(nodes.get(i).name, nodes.get(i).address(), null, null, null, null));
        }
        return ClusterConfig.builder().name(name).mode(Mode.HTTP).listen(listen).policy("round-robin")
                .nodes(list).build();
    }

    private static LoadwiseConfig config(ClusterConfig... clusters) {
        return Configs.config(clusters);
    }

    private void write(LoadwiseConfig config) throws IOException {
        Files.writeString(file, ConfigLoader.toJson(config));
    }

    private ReloadResult reloadWith(LoadwiseConfig config) throws Exception {
        write(config);
        return dispatcher.reload();
    }

    private int port(String cluster) {
        return dispatcher.boundAddress(cluster).getPort();
    }

    @Test
    void reloadsThatAddAndRemoveNodesAndClustersFailNoRequest() throws Exception {
        int webPort = port("web");
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger ok = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Set<String> answeredBy = ConcurrentHashMap.newKeySet();
        List<CompletableFuture<Void>> clients = new ArrayList<>();
        for (int c = 0; c < 2; c++) {
            clients.add(CompletableFuture.runAsync(() -> {
                try (StrictClient client = new StrictClient(webPort)) {
                    while (running.get()) {
                        answeredBy.add(client.get("/"));
                        ok.incrementAndGet();
                    }
                } catch (IOException | RuntimeException e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        Await.until("traffic flows", () -> ok.get() > 20 || failure.get() != null);

        ReloadResult addNode = reloadWith(config(web(0, 1, 2)));
        assertEquals(List.of("web"), addNode.replaced());
        assertEquals(webPort, port("web"), "the socket was handed over, not rebound");
        Await.until("the added node answers", () -> answeredBy.contains("n3") || failure.get() != null);

        ReloadResult addCluster = reloadWith(config(web(0, 1, 2), http("api", "127.0.0.1:0", 2)));
        assertEquals(List.of("api"), addCluster.added());
        assertEquals(List.of("web"), addCluster.unchanged());
        int apiPort = port("api");
        try (StrictClient client = new StrictClient(apiPort)) {
            assertEquals("n3", client.get("/"));
        }

        for (int round = 0; round < 6; round++) {
            reloadWith(config(web(round % 2 == 0 ? new int[] {1, 2} : new int[] {0, 2}), http("api", "127.0.0.1:0", 2)));
            reloadWith(config(web(0, 1, 2), http("api", "127.0.0.1:0", 2)));
            assertEquals(apiPort, port("api"));
        }
        answeredBy.clear();
        ReloadResult removeAll = reloadWith(config(web(2)));
        assertEquals(List.of("api"), removeAll.removed());
        assertNull(dispatcher.cluster("api"));
        assertRefused(apiPort);
        int before = ok.get();
        Await.until("requests keep flowing after the reloads", () -> ok.get() > before + 20 || failure.get() != null);
        answeredBy.clear();
        Await.until("more requests", () -> ok.get() > before + 40 || failure.get() != null);

        running.set(false);
        CompletableFuture.allOf(clients.toArray(new CompletableFuture[0])).get(10, TimeUnit.SECONDS);
        assertNull(failure.get(), () -> "a request failed during the reloads: " + failure.get());
        assertEquals(Set.of("n3"), answeredBy, "only the node left serves once the old connections drained");
        assertEquals(webPort, port("web"));
    }

    @Test
    void anInvalidFileChangesNothing() throws Exception {
        int webPort = port("web");
        LoadwiseConfig before = dispatcher.config();
        Files.writeString(file, ConfigLoader.toJson(config(web(0, 1))).replace("\"round-robin\"", "\"no-such-policy\""));

        ConfigValidationException e = assertThrows(ConfigValidationException.class, dispatcher::reload);

        assertTrue(e.getMessage().contains("clusters[0].policy"), e.getMessage());
        assertEquals(before, dispatcher.config());
        assertEquals(webPort, port("web"));
        try (StrictClient client = new StrictClient(webPort)) {
            assertTrue(Set.of("n1", "n2").contains(client.get("/")));
        }
        Files.writeString(file, "{ \"clusters\": [ ");
        ConfigValidationException syntax = assertThrows(ConfigValidationException.class, dispatcher::reload);
        assertTrue(syntax.getMessage().contains("invalid JSON"), syntax.getMessage());
        assertEquals(before, dispatcher.config());
    }

    @Test
    void aRemovedClusterFinishesTheRequestInFlightThenStopsAccepting() throws Exception {
        reloadWith(config(web(0, 1), http("slow", "127.0.0.1:0", 2)));
        int slowPort = port("slow");
        CompletableFuture<String> inFlight = CompletableFuture.supplyAsync(() -> {
            try (StrictClient client = new StrictClient(slowPort)) {
                return client.get("/slow");
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        assertTrue(nodes.get(2).slowArrived.await(10, TimeUnit.SECONDS));

        ReloadResult result = reloadWith(config(web(0, 1)));

        assertEquals(List.of("slow"), result.removed());
        assertRefused(slowPort);
        nodes.get(2).release.countDown();
        assertEquals("n3", inFlight.get(10, TimeUnit.SECONDS));
    }

    @Test
    void aChangedListenAddressBindsTheNewOneBeforeTheOldDrains() throws Exception {
        int oldPort = port("web");
        String newListen;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            newListen = "127.0.0.1:" + probe.getLocalPort();
        }
        ReloadResult result = reloadWith(config(http("web", newListen, 0, 1)));

        assertEquals(List.of("web"), result.replaced());
        int newPort = port("web");
        assertEquals(newListen, "127.0.0.1:" + newPort);
        assertRefused(oldPort);
        try (StrictClient client = new StrictClient(newPort)) {
            assertNotNull(client.get("/"));
        }
    }

    @Test
    void aNewAddressInUseRefusesTheWholeReload() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            LoadwiseConfig before = dispatcher.config();
            ConfigValidationException e = assertThrows(ConfigValidationException.class, () -> reloadWith(
                    config(web(0, 1, 2), http("api", "127.0.0.1:" + taken.getLocalPort(), 2))));
            assertTrue(e.getMessage().startsWith("clusters[1].listen: "), e.getMessage());
            assertEquals(before, dispatcher.config());
            assertEquals(2, dispatcher.cluster("web").nodes().size(), "web was not rebuilt either");
        }
    }

    @Test
    void aPolicySwitchIsAppliedInPlace() throws Exception {
        var cluster = dispatcher.cluster("web");
        ClusterConfig switched = web(0, 1).toBuilder().policy("least-connections").build();
        ReloadResult result = reloadWith(config(switched));
        assertEquals(List.of("web"), result.updated());
        assertTrue(cluster == dispatcher.cluster("web"), "the same running cluster");
        assertEquals("least-connections", dispatcher.cluster("web").policy().id());
    }

    private static void assertRefused(int port) {
        assertThrows(ConnectException.class, () -> new Socket(InetAddress.getLoopbackAddress(), port).close());
    }
}
