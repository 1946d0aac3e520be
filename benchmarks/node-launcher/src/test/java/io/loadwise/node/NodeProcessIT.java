package io.loadwise.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.scenario.CapacityScenario;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Nodes and the database as real child JVMs of the packaged launcher jar. */
class NodeProcessIT {

    private static final Path LAUNCHER_JAR = Path.of("target", "loadwise-node-launcher.jar");
    private static final Duration STARTUP = Duration.ofSeconds(60);

    @TempDir
    Path work;
    private NodeLauncher launcher;

    @BeforeEach
    void launcher() {
        assertTrue(Files.isRegularFile(LAUNCHER_JAR), "run after package: " + LAUNCHER_JAR.toAbsolutePath());
        launcher = NodeLauncher.builder().classpath(LAUNCHER_JAR.toAbsolutePath().toString()).workRoot(work)
                .jvmOption("-XX:TieredStopAtLevel=1").jvmOption("-XX:+UseSerialGC").build();
    }

    @Test
    void optionsAreCheckedBeforeAnyJvmStarts() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> launcher.startNode(
                new NodeSpec("VCN1", 0, NodeCapacity.BASELINE), "jdbc:derby://127.0.0.1:1/trade"));
        assertTrue(e.getMessage().startsWith("--db-url must be an H2 JDBC URL"), e.getMessage());
        assertFalse(Files.exists(work.resolve("VCN1")), "nothing was started");
    }

    @Test
    void nodeThatCannotStartFailsTheWaitWithItsLog() throws Exception {
        Path badWar = Files.writeString(work.resolve("bad.war"), "not a zip file");
        NodeLauncher badLauncher = NodeLauncher.builder().classpath(LAUNCHER_JAR.toAbsolutePath().toString())
                .workRoot(work.resolve("bad")).war(badWar).build();
        NodeProcess node = badLauncher.startNode(new NodeSpec("broken", 0, new NodeCapacity(64, 1, 1, 1)),
                "jdbc:h2:tcp://127.0.0.1:1/trade");
        try {
            IOException e = assertThrows(IOException.class, () -> node.awaitHealthy(STARTUP));
            assertTrue(e.getMessage().contains("exited with code 1"), e.getMessage());
            assertTrue(e.getMessage().contains("node broken failed to start"), e.getMessage());
        } finally {
            node.close();
        }
        assertFalse(node.isAlive());
    }

    @Test
    void clusterOfTable9NodeJvmsServesTheScenarioAndStopsWithNothingLeft() throws Exception {
        List<Long> pids = new ArrayList<>();
        try (NodeCluster cluster = NodeCluster.start(launcher, 0,
                NodeSpec.table9(CapacityScenario.COMBINED, List.of(0, 0, 0)), STARTUP)) {
            List<NodeProcess> nodes = cluster.nodes();
            pids.add(cluster.database().pid());
            assertEquals(List.of("VCN1", "VCN2", "VCN3"), nodes.stream().map(NodeProcess::name).toList());
            HttpResponse<String> built = new TradeClient(nodes.get(0).baseUri())
                    .get("config?action=buildDB&users=30&quotes=10");
            assertEquals(200, built.statusCode(), built.body());
            for (NodeProcess node : nodes) {
                pids.add(node.pid());
                List<String> arguments = List.of(ProcessHandle.of(node.pid()).orElseThrow().info().arguments()
                        .orElseThrow());
                assertTrue(arguments.contains("-Xmx" + node.spec().capacity().heapMb() + "m"), arguments.toString());
                assertTrue(arguments.contains("--exit-with-parent"), arguments.toString());
                TradeClient client = new TradeClient(node.baseUri());
                for (int i = 0; i < 10; i++) {
                    client.scenario();
                }
                assertTrue(client.sessionId().orElseThrow().endsWith("." + node.name()), node.name());
                assertTrue(Files.readString(node.logFile()).contains(NodeMain.READY_MARKER), node.name());
            }
            assertEquals(256, nodes.get(2).spec().capacity().heapMb());

            cluster.database().close();
            HttpResponse<String> health = new TradeClient(nodes.get(0).baseUri()).get("health");
            assertEquals(503, health.statusCode(), "a node without its database is not healthy");
            assertTrue(health.body().startsWith("DOWN database unreachable"), health.body());
        }
        assertEquals(4, pids.size());
        pids.forEach(NodeProcessIT::assertGone);
    }

    private static void assertGone(long pid) {
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "process " + pid + " still runs");
    }
}
