package io.loadwise.dispatcher.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.config.DrainMode;
import io.loadwise.dispatcher.config.HealthCheckConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.control.ClusterStatus;
import io.loadwise.dispatcher.control.HealthStatus;
import io.loadwise.dispatcher.control.NodeStatus;
import io.loadwise.dispatcher.control.ReloadResult;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.runtime.HttpNodes.Node;
import io.loadwise.dispatcher.runtime.HttpNodes.StrictClient;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.dispatcher.testsupport.Configs;
import io.loadwise.policy.PolicyRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reload that changes the node list rebuilds the cluster; the nodes it keeps (same name, same address) keep
 * what was known of them: health, drain, no new slow start ({@code NodeHandover}). Real nodes on loopback, a
 * real dispatcher reloading its file, the status the REST API serves.
 */
class ReloadKeepsNodeStateTest {

    private static final int REQUESTS = 60;
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
        for (int i = 1; i <= 4; i++) {
            nodes.add(new Node("n" + i));
        }
        file = dir.resolve("loadwise.json");
        write(web(node(0), node(1), node(2)));
        ConfigStore store = new ConfigStore(file);
        dispatcher = new Dispatcher(store.load(), store, PolicyRegistry.load(), transport, new ModeListenerFactory());
        dispatcher.start("test-token-0123456789", false);
        Await.until("every node checked up", () -> dispatcher.clusterStatus("web").nodes().stream()
                .allMatch(n -> "up".equals(n.health().state())));
    }

    @AfterEach
    void stop() {
        dispatcher.close();
        nodes.forEach(Node::close);
    }

    private NodeConfig node(int i) {
        return new NodeConfig(nodes.get(i).name, nodes.get(i).address(), null, null, null, null);
    }

    /**
     * Checks every 200 ms (a timeout that long, so a busy machine's slow check does not take a node down); two
     * failures make a node down, two passes bring it back; a 60 s slow start.
     */
    private static ClusterConfig webConfig(NodeConfig... list) {
        return ClusterConfig.builder().name("web").mode(Mode.HTTP).listen("127.0.0.1:0").policy("round-robin")
                .healthCheck(new HealthCheckConfig("/", 200, 200, 2, 2, "200-399")).slowStartMs(60_000)
                .nodes(List.of(list)).build();
    }

    private void write(ClusterConfig cluster) throws Exception {
        Files.writeString(file, ConfigLoader.toJson(Configs.config(cluster)));
    }

    private static ClusterConfig web(NodeConfig... list) {
        return webConfig(list);
    }

    private ReloadResult reload(ClusterConfig cluster) throws Exception {
        write(cluster);
        return dispatcher.reload();
    }

    private NodeStatus status(String node) {
        ClusterStatus cluster = dispatcher.clusterStatus("web");
        return cluster.node(node);
    }

    /** Sends {@link #REQUESTS} requests on one keep-alive connection; every one must succeed. By node name. */
    private Map<String, Integer> send() throws Exception {
        Map<String, Integer> answers = new HashMap<>();
        try (StrictClient client = new StrictClient(dispatcher.boundAddress("web").getPort())) {
            for (int i = 0; i < REQUESTS; i++) {
                answers.merge(client.get("/"), 1, Integer::sum);
            }
        }
        return answers;
    }

    @Test
    void aNodeCheckedDownStaysDownAcrossAReloadThatAddsANode() throws Exception {
        nodes.get(2).close(); // n3 stops: its checks are refused
        Await.until("n3 checked down", () -> "down".equals(status("n3").health().state()));
        Await.until("n1 and n2 up", () -> "up".equals(status("n1").health().state())
                && "up".equals(status("n2").health().state()));
        VirtualCluster before = dispatcher.cluster("web");
        double n1Share = status("n1").slowStartShare();
        double n2Share = status("n2").slowStartShare();

        ReloadResult result = reload(web(node(0), node(1), node(2), node(3)));

        assertEquals(List.of("web"), result.replaced(), "the node list changed: the cluster was rebuilt");
        VirtualCluster after = dispatcher.cluster("web");
        assertTrue(before != after, "a new running cluster");
        HealthStatus n3 = status("n3").health();
        assertEquals("down", n3.state(), "right after the reload the stopped node is still down");
        assertEquals("connection refused", n3.lastCheck().problem(), "with the check that found it down");
        assertFalse(status("n3").healthy());
        assertEquals("up", status("n1").health().state());
        assertEquals("up", status("n2").health().state());
        assertTrue(status("n1").slowStartShare() >= n1Share, "a kept node does not start its slow start again");
        assertTrue(status("n2").slowStartShare() >= n2Share);
        assertNotEquals("down", status("n4").health().state(), "an added node starts as at start");

        Map<String, Integer> answers = send();

        assertEquals(REQUESTS, answers.values().stream().mapToInt(Integer::intValue).sum());
        assertFalse(answers.containsKey("n3"), answers.toString());
        assertEquals(0, after.node("n3").counters().read().selections(), "no request was sent to n3: " + answers);
        assertTrue(java.util.Set.of("n1", "n2", "n4").containsAll(answers.keySet()), answers.toString());
        assertTrue(answers.getOrDefault("n4", 0) > 0, "the added node takes its share: " + answers);
        assertEquals("down", status("n3").health().state(), "and it stays down while it is stopped");
    }

    @Test
    void aNodeWhoseAddressChangedIsANewNode() throws Exception {
        nodes.get(2).close();
        Await.until("n3 checked down", () -> "down".equals(status("n3").health().state()));
        NodeConfig n3Moved = new NodeConfig("n3", nodes.get(3).address(), null, null, null, null); // n4's server

        reload(web(node(0), node(1), n3Moved));

        HealthStatus n3 = status("n3").health();
        assertNotEquals("down", n3.state(), "a new address is a new node: nothing of the old one is kept");
        assertTrue(n3.lastCheck() == null || n3.lastCheck().ok(), "no check of the old address: " + n3.lastCheck());
        assertEquals("up", status("n1").health().state(), "the nodes kept are still up");
        Await.until("n3 at its new address checked up", () -> "up".equals(status("n3").health().state()));
        assertTrue(send().containsKey("n4"), "the server at n3's new address answers");
    }

    @Test
    void aNodeDrainedThroughTheApiStaysDrainingAcrossAReload() throws Exception {
        dispatcher.updateNode("web", "n1", null, null, true); // runtime state: the file says nothing of it
        assertTrue(status("n1").draining());

        reload(web(node(0), node(1), node(2), node(3)));

        assertTrue(status("n1").draining(), "the API's drain is runtime state, kept for a kept node");
        assertEquals("up", status("n1").health().state());
        Map<String, Integer> answers = send();
        assertFalse(answers.containsKey("n1"), "a draining node takes no new request: " + answers);
        assertEquals(0, dispatcher.cluster("web").node("n1").counters().read().selections());

        reload(web(node(0).withWeight(3), node(1), node(2))); // n4 leaves: rebuilt again
        assertTrue(status("n1").draining(), "the file's drain did not change (none before, none now): kept");

        reload(web(withDrain(node(0), DrainMode.IMMEDIATE), node(1), node(2), node(3)));
        assertTrue(status("n1").draining());
        reload(web(node(0), node(1), node(2))); // the file's drain changed: it wins, as when applied in place
        assertFalse(status("n1").draining(), "the file ended the drain it had started");
    }

    private static NodeConfig withDrain(NodeConfig n, DrainMode drain) {
        return new NodeConfig(n.name(), n.address(), n.weight(), n.enabled(), n.route(), n.agentPath(),
                n.healthCheck(), n.maxConnections(), n.contexts(), n.priority(), n.backup(), drain, n.domain());
    }
}
