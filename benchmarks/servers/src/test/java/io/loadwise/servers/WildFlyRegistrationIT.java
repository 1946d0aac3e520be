package io.loadwise.servers;

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
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A server of another kind registering itself: WildFly 39 with the probe WAR and the real agent, started with
 * {@code -Dloadwise.agent.register=...}, registers with the real dispatcher (REST API, registration token) with
 * the route (Undertow's {@code instance-id}) and the HTTP port it read over JMX, serves under load, and
 * deregisters when it shuts down. Counts the failed requests of each phase for servers.md.
 */
@EnabledIfSystemProperty(named = "loadwise.wildfly.home", matches = ".+")
class WildFlyRegistrationIT {

    private static final String TOKEN = "test-token-0123456789";
    private static final String REG_TOKEN = "reg-token-a1b2c3d4e5f6";
    private static final String ROUTE = "wfr1";
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    private Transport transport;
    private Dispatcher dispatcher;
    private ServerProcess server;

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
    void wildFlyRegistersServesAndDeregistersUnderLoad() throws Exception {
        Path work = Path.of(System.getProperty("loadwise.servers.work", "target/server-work")).resolve("wildfly-reg");
        Files.createDirectories(work);
        Path file = work.resolve("loadwise.json");
        Files.writeString(file, """
                {"admin": {"listen": "127.0.0.1:0", "token": "%s", "registrationToken": "%s", "dataDir": "%s"},
                 "clusters": [{"name": "servers", "mode": "http", "listen": "127.0.0.1:0", "policy": "round-robin",
                               "responseTimeoutMs": 120000,
                               "registration": {"enabled": true, "allowedNetworks": ["127.0.0.0/8"]}}]}
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

        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong ok = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        List<String> problems = Collections.synchronizedList(new ArrayList<>());
        List<Thread> clients = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Thread t = new Thread(() -> {
                while (running.get()) {
                    try {
                        HttpResponse<String> r = get(AppServerNodeContract.CONTEXT + "/probe/ping");
                        if (r.statusCode() == 200) {
                            ok.incrementAndGet();
                        } else {
                            failed.incrementAndGet();
                            problems.add(r.statusCode() + " " + r.body());
                        }
                    } catch (IOException e) {
                        failed.incrementAndGet();
                        problems.add(e.toString());
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            t.start();
            clients.add(t);
        }
        long servedRegistered;
        long failedRegistered;
        try {
            await("load through WildFly", Duration.ofSeconds(60), () -> ok.get() > 300 || !problems.isEmpty());
            servedRegistered = ok.get();
            failedRegistered = failed.get();
            server.close(); // SIGTERM: WildFly undeploys the WAR; the agent deregisters in contextDestroyed
            await("WildFly deregistered and removed", Duration.ofSeconds(60), () -> registered() == null);
        } finally {
            running.set(false);
            for (Thread t : clients) {
                t.join(15_000);
            }
        }
        String figures = "registered: " + servedRegistered + " served, " + failedRegistered + " failed; shutdown "
                + "and deregistration: " + (ok.get() - servedRegistered) + " served, " + (failed.get() - failedRegistered)
                + " failed (with no node left, the dispatcher answers 503 or 404)"
                + (problems.isEmpty() ? "" : "; first " + problems.subList(0, Math.min(5, problems.size())));
        System.out.println("WildFlyRegistrationIT figures: " + figures);
        Files.writeString(work.resolve("registration-figures.txt"), figures + "\n");
        assertEquals(0, failedRegistered, figures);
        assertTrue(servedRegistered > 300, figures);
    }

    private ServerProcess start(Path war, Path work, int port) throws Exception {
        Path home = Path.of(System.getProperty("loadwise.wildfly.home"));
        Path base = work.resolve("standalone");
        WildFlyNodeIT.deleteTree(base);
        WildFlyNodeIT.copyTree(home.resolve("standalone"), base);
        Files.copy(war, base.resolve("deployments").resolve("probe.war"));
        List<String> command = new ArrayList<>(List.of(home.resolve("bin/standalone.sh").toString(),
                "-Djboss.server.base.dir=" + base,
                "-Djboss.http.port=" + port, "-Djboss.https.port=" + ServerProcess.freePort(),
                "-Djboss.management.http.port=" + ServerProcess.freePort(),
                "-Djboss.management.https.port=" + ServerProcess.freePort(),
                "-Djboss.bind.address=127.0.0.1", "-Djboss.node.name=" + ROUTE,
                "-Dloadwise.agent.register=http://127.0.0.1:" + dispatcher.controlPlane().port(),
                "-Dloadwise.agent.cluster=servers", "-Dloadwise.agent.register.token=" + REG_TOKEN,
                "-Dloadwise.agent.host=127.0.0.1", "-Dloadwise.agent.heartbeat.ms=1000"));
        return ServerProcess.start(command, work, Map.of("JAVA_OPTS", "-Xmx256m -Djava.net.preferIPv4Stack=true"),
                work.resolve("wildfly.log"));
    }

    private List<NodeStatus> nodes() {
        ClusterStatus cluster = dispatcher.clusterStatus("servers");
        return cluster == null ? List.of() : cluster.nodes();
    }

    private NodeStatus registered() {
        ClusterStatus cluster = dispatcher.clusterStatus("servers");
        return cluster == null ? null : cluster.node(ROUTE);
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        URI uri = URI.create("http://127.0.0.1:" + dispatcher.boundAddress("servers").getPort() + path);
        return HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("timed out after " + timeout.toMillis() + " ms waiting for: " + what);
            }
            TimeUnit.MILLISECONDS.sleep(50); // poll interval of the wait, not a synchronisation
        }
    }
}
