package io.loadwise.servers;

import org.awaitility.Awaitility;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.control.ClusterStatus;
import io.loadwise.dispatcher.control.NodeStatus;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.runtime.Dispatcher;
import io.loadwise.dispatcher.runtime.ModeListenerFactory;
import io.loadwise.policy.PolicyRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A server of another kind registering itself: WildFly 39 with the probe WAR and the real agent, started with
 * {@code -Dloadwise.agent.register=...}, registers with the real dispatcher (REST API, registration token) with
 * the route (Undertow's {@code instance-id}) and the HTTP port it read over JMX, serves under load next to an
 * always-up second node, leaves selection on an operator's {@code :suspend} and comes back on {@code :resume},
 * leaves on an undeploy and comes back on the redeploy, and leaves selection when it gets SIGTERM, before
 * WildFly's suspend answers 503. Not one request through the dispatcher fails but during the undeploy (WildFly
 * unmaps the context before contextDestroyed; counted, not asserted). Counts the requests of each phase for
 * servers.md.
 */
@EnabledIfSystemProperty(named = "loadwise.wildfly.home", matches = ".+")
class WildFlyRegistrationIT {

    private static final String TOKEN = "test-token-0123456789";
    private static final String REG_TOKEN = "reg-token-a1b2c3d4e5f6";
    private static final String ROUTE = "wfr1";

    private Transport transport;
    private Dispatcher dispatcher;
    private ServerProcess server;
    private int managementPort;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        if (dispatcher != null) {
            dispatcher.close();
        }
        if (transport != null) {
            transport.close();
        }
    }

    @Test
    void wildFlyRegistersServesAndLeavesOnSigtermWithoutAFailedRequest() throws Exception {
        Path work = Path.of(System.getProperty("loadwise.servers.work", "target/server-work")).resolve("wildfly-reg");
        Files.createDirectories(work);
        Path file = work.resolve("loadwise.json");
        Files.writeString(file, """
                {"admin": {"listen": "127.0.0.1:0", "token": "%s", "registrationToken": "%s", "dataDir": "%s"},
                 "clusters": [{"name": "servers", "mode": "http", "listen": "127.0.0.1:0", "policy": "round-robin",
                               "responseTimeoutMs": 120000,
                               "registration": {"enabled": true, "allowedNetworks": ["127.0.0.0/8"], "ttlMs": 600000}}]}
                """.formatted(TOKEN, REG_TOKEN, work.resolve("data").toString().replace("\\", "/")));
        transport = new Transport(1);
        dispatcher = new Dispatcher(ConfigLoader.load(file), new ConfigStore(file), PolicyRegistry.load(), transport,
                new ModeListenerFactory());
        dispatcher.start(TOKEN, true);

        Path artifacts = Path.of(System.getProperty("loadwise.node.artifacts", "target/node-artifacts"));
        Path war = ProbeWar.build(artifacts.resolve("loadwise-agent-jakarta.jar"), work.resolve("probe.war"));
        int port = ServerProcess.freePort();
        server = start(war, work, port);
        await("WildFly registered", Duration.ofMinutes(4), () -> !nodes().isEmpty() || !server.isAlive());
        assertEquals(1, nodes().size(), "WildFly died, or registered more than once; log " + server.log());
        NodeStatus node = nodes().get(0);
        assertEquals(ROUTE, node.name(), "named after its route");
        assertEquals(ROUTE, node.route(), "the route is Undertow's instance-id, read over JMX");
        assertEquals(port, node.address().getPort(), "the HTTP port, read over JMX");
        assertEquals(List.of(AppServerNodeContract.CONTEXT), node.contexts());

        // the always-up second node of /probe: with it, a request that fails during the shutdown is a failure
        // of the shutdown, not the lack of a node
        try (RegisteredNodeLoad load = new RegisteredNodeLoad(dispatcher, "servers",
                AppServerNodeContract.CONTEXT + "/probe/ping")) {
            load.registerStub(AppServerNodeContract.CONTEXT, REG_TOKEN);
            load.start(4);
            RegisteredNodeLoad.await("load through WildFly", Duration.ofSeconds(60),
                    () -> load.byServer.get() > 300 || !load.problems.isEmpty());
            long servedRegistered = load.ok.get();
            long failedRegistered = load.failed.get();

            // An operator's :suspend: the agent's suspend activity deregisters in the prepare phase, before
            // WildFly's request controller answers 503; :resume registers the node again.
            cli(work, ":suspend");
            RegisteredNodeLoad.await("WildFly deregistered on :suspend and removed", Duration.ofSeconds(30),
                    () -> registered() == null);
            long servedAtSuspend = load.ok.get();
            RegisteredNodeLoad.await("100 more requests on the other node", Duration.ofSeconds(30),
                    () -> load.ok.get() >= servedAtSuspend + 100 || load.failed.get() > 100);
            long servedSuspended = load.ok.get() - servedRegistered;
            long failedSuspended = load.failed.get() - failedRegistered;
            cli(work, ":resume");
            RegisteredNodeLoad.await("WildFly registered again on :resume", Duration.ofSeconds(30),
                    () -> registered() != null);
            long byServerResumed = load.byServer.get();
            RegisteredNodeLoad.await("WildFly serving again", Duration.ofSeconds(30),
                    () -> load.byServer.get() > byServerResumed + 100 || load.failed.get() > 100);
            long servedBeforeUndeploy = load.ok.get();
            long failedBeforeUndeploy = load.failed.get();

            // Undeploying the application alone, through the deployment scanner (its marker files): the agent
            // hears of it only in contextDestroyed. Counted for the docs, not asserted.
            Path deployments = work.resolve("standalone/deployments");
            Files.delete(deployments.resolve("probe.war.deployed"));
            RegisteredNodeLoad.await("WildFly deregistered on undeploy and removed", Duration.ofSeconds(60),
                    () -> registered() == null);
            long servedAtUndeploy = load.ok.get();
            RegisteredNodeLoad.await("100 more requests on the other node", Duration.ofSeconds(30),
                    () -> load.ok.get() >= servedAtUndeploy + 100 || load.failed.get() > 100);
            long servedUndeploy = load.ok.get() - servedBeforeUndeploy;
            long failedUndeploy = load.failed.get() - failedBeforeUndeploy;
            Files.writeString(deployments.resolve("probe.war.dodeploy"), "");
            RegisteredNodeLoad.await("WildFly registered again after the redeploy", Duration.ofSeconds(60),
                    () -> registered() != null);
            long byServerRedeployed = load.byServer.get();
            RegisteredNodeLoad.await("WildFly serving again", Duration.ofSeconds(30),
                    () -> load.byServer.get() > byServerRedeployed + 100 || load.failed.get() > failedBeforeUndeploy
                            + failedUndeploy + 100);
            long servedBeforeStop = load.ok.get();
            long failedBeforeStop = load.failed.get();
            String undeployFigures = "undeploy to removal and 100 after: " + servedUndeploy + " served, "
                    + failedUndeploy + " failed; redeploy to 100 served by WildFly: "
                    + (servedBeforeStop - servedBeforeUndeploy - servedUndeploy) + " served, "
                    + (failedBeforeStop - failedBeforeUndeploy - failedUndeploy) + " failed; ";
            String suspendFigures = ":suspend to removal and 100 after: " + servedSuspended + " served, "
                    + failedSuspended + " failed; :resume to 100 served by WildFly: "
                    + (servedBeforeUndeploy - servedRegistered - servedSuspended) + " served, "
                    + (failedBeforeUndeploy - failedRegistered - failedSuspended) + " failed; " + undeployFigures;
            long sigterm = System.nanoTime();
            // SIGTERM: WildFly suspends; the agent deregisters in the suspend's prepare phase, before WildFly's
            // request controller answers 503 (and a JVM shutdown hook does the same on every server)
            server.close();
            long stopped = System.nanoTime();
            RegisteredNodeLoad.await("WildFly deregistered and removed", Duration.ofSeconds(60),
                    () -> registered() == null);
            long servedAtRemoval = load.ok.get();
            RegisteredNodeLoad.await("200 more requests on the other node", Duration.ofSeconds(30),
                    () -> load.ok.get() >= servedAtRemoval + 200 || load.failed.get() > 100);
            load.close();
            String figures = "registered: " + servedRegistered + " served (" + load.byServer.get()
                    + " of all by WildFly), " + failedRegistered + " failed; " + suspendFigures
                    + "SIGTERM to removal and 200 after: "
                    + (load.ok.get() - servedBeforeStop) + " served, " + (load.failed.get() - failedBeforeStop)
                    + " failed; WildFly stopped " + (stopped - sigterm) / 1_000_000 + " ms after SIGTERM"
                    + load.firstProblems();
            System.out.println("WildFlyRegistrationIT figures: " + figures);
            Files.writeString(work.resolve("registration-figures.txt"), figures + "\n");
            String log = Files.readString(server.log());
            assertTrue(log.contains("Loadwise agent: node " + ROUTE + " deregistered from cluster servers (WildFly "
                    + "suspends)"), "the suspend activity deregistered on :suspend; log " + server.log());
            assertTrue(log.contains("Loadwise agent: node " + ROUTE + " registers again"), "and :resume registered "
                    + "again; log " + server.log());
            RegisteredNodeLoad.assertNoFailure(load.failed.get() - failedUndeploy, figures);
        }
    }

    private ServerProcess start(Path war, Path work, int port) throws Exception {
        Path home = Path.of(System.getProperty("loadwise.wildfly.home"));
        managementPort = ServerProcess.freePort();
        Path base = work.resolve("standalone");
        WildFlyNodeIT.deleteTree(base);
        WildFlyNodeIT.copyTree(home.resolve("standalone"), base);
        Files.copy(war, base.resolve("deployments").resolve("probe.war"));
        List<String> command = new ArrayList<>(List.of(home.resolve("bin/standalone.sh").toString(),
                "-Djboss.server.base.dir=" + base,
                "-Djboss.http.port=" + port, "-Djboss.https.port=" + ServerProcess.freePort(),
                "-Djboss.management.http.port=" + managementPort,
                "-Djboss.management.https.port=" + ServerProcess.freePort(),
                "-Djboss.bind.address=127.0.0.1", "-Djboss.node.name=" + ROUTE,
                "-Dloadwise.agent.register=http://127.0.0.1:" + dispatcher.controlPlane().port(),
                "-Dloadwise.agent.cluster=servers", "-Dloadwise.agent.register.token=" + REG_TOKEN,
                "-Dloadwise.agent.host=127.0.0.1", "-Dloadwise.agent.heartbeat.ms=1000"));
        return ServerProcess.start(command, work, Map.of("JAVA_OPTS", "-Xmx256m -Djava.net.preferIPv4Stack=true"),
                work.resolve("wildfly.log"));
    }

    /** One management operation through WildFly's own CLI (local authentication: the same OS user). */
    private void cli(Path work, String operation) throws Exception {
        Path home = Path.of(System.getProperty("loadwise.wildfly.home"));
        Path log = work.resolve("cli.log");
        ProcessBuilder builder = new ProcessBuilder(home.resolve("bin/jboss-cli.sh").toString(), "--connect",
                "--controller=127.0.0.1:" + managementPort, "--command=" + operation)
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process cli = builder.start();
        if (!cli.waitFor(90, TimeUnit.SECONDS)) {
            cli.destroyForcibly();
            fail("jboss-cli " + operation + " did not finish in 90 s; " + log);
        }
        assertEquals(0, cli.exitValue(), "jboss-cli " + operation + ": " + Files.readString(log));
    }

    private List<NodeStatus> nodes() {
        ClusterStatus cluster = dispatcher.clusterStatus("servers");
        return cluster == null ? List.of() : cluster.nodes();
    }

    private NodeStatus registered() {
        ClusterStatus cluster = dispatcher.clusterStatus("servers");
        return cluster == null ? null : cluster.node(ROUTE);
    }

    private static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        Awaitility.await(what).atMost(timeout).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(50))
                .until(condition::getAsBoolean);
    }
}
