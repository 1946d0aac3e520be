package io.loadwise.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.ConfigValidator;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.runtime.Dispatcher;
import io.loadwise.dispatcher.runtime.ModeListenerFactory;
import io.loadwise.policy.PolicyRegistry;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue "App servers, as mod_cluster serves them", time to readmission after a kill, on Tomcat: two real
 * Tomcat 11 trade-app nodes (child JVMs of the packaged launcher, with the real agent) behind two real
 * dispatchers with the default agent timings, one jvm-aware and one round-robin. VCN2 gets SIGKILL under
 * light load and is started again on its port; {@link KillReadmission} measures and asserts readmission
 * within 2 s of its first answer. The figures go to benchmarks/results/2026-11-23-servers/servers.md.
 */
class KillReadmissionIT {

    private static final Path LAUNCHER_JAR = Path.of("target", "loadwise-node-launcher.jar");
    private static final Duration STARTUP = Duration.ofSeconds(90);

    @TempDir
    Path work;
    private Transport transport;
    private DatabaseProcess database;
    private final List<Dispatcher> dispatchers = new ArrayList<>();
    private final List<NodeProcess> nodes = new ArrayList<>();

    @AfterEach
    void stop() {
        dispatchers.forEach(Dispatcher::close);
        if (transport != null) {
            transport.close();
        }
        nodes.forEach(NodeProcess::close);
        if (database != null) {
            database.close();
        }
    }

    private NodeLauncher launcher(Path root) throws IOException {
        return NodeLauncher.builder().classpath(LAUNCHER_JAR.toAbsolutePath().toString()).workRoot(root)
                .agentJar(BuiltAgentJar.find()).jvmOption("-XX:TieredStopAtLevel=1").jvmOption("-XX:+UseSerialGC").build();
    }

    @Test
    void aKilledTomcatNodeIsSelectedAgainWithinTwoSecondsOfAnsweringAfterItsRestart() throws Exception {
        assertTrue(Files.isRegularFile(LAUNCHER_JAR), "run after package: " + LAUNCHER_JAR.toAbsolutePath());
        NodeLauncher launcher = launcher(work.resolve("first"));
        database = launcher.startDatabase(0, STARTUP);
        nodes.add(launcher.startNode(new NodeSpec("VCN1", 0, NodeCapacity.BASELINE), database.jdbcUrl()));
        nodes.add(launcher.startNode(new NodeSpec("VCN2", 0, NodeCapacity.BASELINE), database.jdbcUrl()));
        for (NodeProcess node : nodes) {
            node.awaitHealthy(STARTUP);
        }
        NodeProcess victim = nodes.get(1);
        int port = victim.port();

        transport = new Transport(1);
        List<KillReadmission.Front> fronts = new ArrayList<>();
        for (String policy : List.of("jvm-aware", "round-robin")) {
            ClusterConfig cluster = ClusterConfig.builder().name("trade").mode(Mode.HTTP).listen("127.0.0.1:0")
                    .policy(policy).agentPath("/trade/loadwise-agent/metrics")
                    .nodes(List.of(new NodeConfig("VCN1", "127.0.0.1:" + nodes.get(0).port(), null, null, "VCN1", null),
                            new NodeConfig("VCN2", "127.0.0.1:" + port, null, null, "VCN2", null))).build();
            LoadwiseConfig config = new LoadwiseConfig(null, null, List.of(cluster));
            PolicyRegistry policies = PolicyRegistry.load();
            assertEquals(List.of(), new ConfigValidator(policies).validate(config));
            Dispatcher dispatcher = new Dispatcher(config, null, policies, transport, new ModeListenerFactory());
            dispatchers.add(dispatcher);
            dispatcher.start("unused", false);
            fronts.add(new KillReadmission.Front(policy, dispatcher, "trade", "VCN2", "/trade/health"));
        }

        NodeLauncher again = launcher(work.resolve("restart"));
        List<KillReadmission.Result> results = KillReadmission.measure("Tomcat 11", fronts,
                URI.create("http://127.0.0.1:" + port + "/trade/health"),
                () -> {
                    ProcessHandle jvm = ProcessHandle.of(victim.pid()).orElseThrow();
                    jvm.destroyForcibly(); // SIGKILL
                    jvm.onExit().get(30, TimeUnit.SECONDS);
                },
                () -> nodes.add(again.startNode(new NodeSpec("VCN2", port, NodeCapacity.BASELINE),
                        database.jdbcUrl())),
                STARTUP);
        StringBuilder rows = new StringBuilder();
        results.forEach(r -> rows.append(r.row()).append('\n'));
        // for the results table: benchmarks/results/2026-11-23-servers/servers.md
        Files.writeString(Path.of("target", "kill-readmission.txt"), rows, StandardCharsets.UTF_8);
    }
}
