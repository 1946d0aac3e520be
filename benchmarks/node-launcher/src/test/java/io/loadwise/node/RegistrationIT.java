package io.loadwise.node;

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
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue "App servers, as mod_cluster serves them", item 6, end to end: real Tomcat trade-app nodes (child JVMs
 * of the packaged launcher) whose real agent registers them with the real dispatcher (REST API, registration
 * token), serve under load, and deregister when they stop (SIGTERM), with no configured node at all. Counts
 * every failed request of each phase; the figures go to benchmarks/results/2026-11-23-servers/servers.md.
 */
class RegistrationIT {

    private static final Path LAUNCHER_JAR = Path.of("target", "loadwise-node-launcher.jar");
    private static final Duration STARTUP = Duration.ofSeconds(90);
    private static final String TOKEN = "test-token-0123456789";
    private static final String REG_TOKEN = "reg-token-a1b2c3d4e5f6";
    private static final int CLIENTS = 4;

    @TempDir
    Path work;
    private Transport transport;
    private Dispatcher dispatcher;
    private DatabaseProcess database;
    private final List<NodeProcess> nodes = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void startDispatcher() throws Exception {
        assertTrue(Files.isRegularFile(LAUNCHER_JAR), "run after package: " + LAUNCHER_JAR.toAbsolutePath());
        Path file = work.resolve("loadwise.json");
        Files.writeString(file, """
                {"admin": {"listen": "127.0.0.1:0", "token": "%s", "registrationToken": "%s", "dataDir": "%s"},
                 "clusters": [{"name": "trade", "mode": "http", "listen": "127.0.0.1:0", "policy": "round-robin",
                               "registration": {"enabled": true, "allowedNetworks": ["127.0.0.0/8"]}}]}
                """.formatted(TOKEN, REG_TOKEN, work.resolve("data").toString().replace("\\", "/")));
        transport = new Transport(1);
        dispatcher = new Dispatcher(ConfigLoader.load(file), new ConfigStore(file), PolicyRegistry.load(), transport,
                new ModeListenerFactory());
        dispatcher.start(TOKEN, true);
    }

    @AfterEach
    void stop() {
        nodes.forEach(NodeProcess::close);
        if (database != null) {
            database.close();
        }
        if (dispatcher != null) {
            dispatcher.close();
        }
        if (transport != null) {
            transport.close();
        }
    }

    private NodeLauncher launcher() throws IOException {
        int admin = dispatcher.controlPlane().port();
        return NodeLauncher.builder().classpath(LAUNCHER_JAR.toAbsolutePath().toString()).workRoot(work)
                .agentJar(BuiltAgentJar.find())
                .jvmOption("-XX:TieredStopAtLevel=1").jvmOption("-XX:+UseSerialGC")
                .jvmOption("-Dloadwise.agent.register=http://127.0.0.1:" + admin)
                .jvmOption("-Dloadwise.agent.cluster=trade")
                .jvmOption("-Dloadwise.agent.register.token=" + REG_TOKEN)
                .jvmOption("-Dloadwise.agent.host=127.0.0.1")
                .jvmOption("-Dloadwise.agent.heartbeat.ms=1000").build();
    }

    private NodeStatus registered(String name) {
        ClusterStatus cluster = dispatcher.clusterStatus("trade");
        return cluster == null ? null : cluster.node(name);
    }

    @Test
    void tomcatNodesRegisterServeAndDeregisterUnderLoadWithoutAFailedRequest() throws Exception {
        NodeLauncher launcher = launcher();
        database = launcher.startDatabase(0, STARTUP);
        nodes.add(launcher.startNode(new NodeSpec("VCN1", 0, NodeCapacity.BASELINE), database.jdbcUrl()));
        nodes.add(launcher.startNode(new NodeSpec("VCN2", 0, NodeCapacity.BASELINE), database.jdbcUrl()));
        for (NodeProcess node : nodes) {
            node.awaitHealthy(STARTUP);
        }
        try {
            await("VCN1 and VCN2 registered", Duration.ofSeconds(30),
                    () -> registered("VCN1") != null && registered("VCN2") != null);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; VCN1's log:\n" + String.join("\n", nodes.get(0).logTail(60)), e);
        }
        NodeStatus vcn1 = registered("VCN1");
        assertTrue(vcn1.registered());
        assertEquals("VCN1", vcn1.route(), "the route is Tomcat's jvmRoute");
        assertEquals(List.of("/trade"), vcn1.contexts(), "the context is the web application's");
        assertEquals(nodes.get(0).port(), vcn1.address().getPort());
        assertEquals(404, get("/other").statusCode(), "a path no node serves");

        Load load = new Load();
        load.start();
        try {
            load.phase("steady, two nodes", Duration.ofSeconds(3));

            load.mark("register VCN3");
            nodes.add(launcher.startNode(new NodeSpec("VCN3", 0, NodeCapacity.BASELINE), database.jdbcUrl()));
            nodes.get(2).awaitHealthy(STARTUP);
            await("VCN3 registered and serving", Duration.ofSeconds(30), () -> registered("VCN3") != null
                    && registered("VCN3").counters().completed() > 0);
            load.phase("register VCN3", Duration.ofSeconds(2));

            load.mark("deregister VCN1 (SIGTERM)");
            nodes.get(0).requestStop();
            await("VCN1 deregistered and removed", Duration.ofSeconds(30), () -> registered("VCN1") == null);
            nodes.get(0).close();
            load.phase("deregister VCN1 (SIGTERM)", Duration.ofSeconds(2));
        } finally {
            load.stop();
        }
        System.out.println("RegistrationIT figures:");
        load.report().forEach((phase, figures) -> System.out.println("  " + phase + ": " + figures));
        assertEquals(0, load.failures.get(), "failed requests: " + load.report());
        assertTrue(load.ok.get() > 100, "requests served: " + load.ok.get());
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        URI uri = URI.create("http://127.0.0.1:" + dispatcher.boundAddress("trade").getPort() + path);
        return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** {@value #CLIENTS} clients looping over {@code /trade/health} through the dispatcher. */
    private final class Load {
        final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicLong ok = new AtomicLong();
        final AtomicLong failures = new AtomicLong();
        final Map<String, String> phases = new ConcurrentHashMap<>();
        final List<String> problems = java.util.Collections.synchronizedList(new ArrayList<>());
        final List<Thread> threads = new ArrayList<>();
        long phaseOk;
        long phaseFailed;

        void start() {
            for (int i = 0; i < CLIENTS; i++) {
                Thread t = new Thread(() -> {
                    while (running.get()) {
                        try {
                            HttpResponse<String> r = get("/trade/health");
                            if (r.statusCode() == 200) {
                                ok.incrementAndGet();
                            } else {
                                failures.incrementAndGet();
                                problems.add(r.statusCode() + " " + r.body().strip());
                            }
                        } catch (IOException e) {
                            failures.incrementAndGet();
                            problems.add(e.toString());
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                }, "load-" + i);
                t.start();
                threads.add(t);
            }
        }

        void mark(String phase) {
            phaseOk = ok.get();
            phaseFailed = failures.get();
        }

        /** Lets the load run on for {@code after}, then records the phase since its mark. */
        void phase(String phase, Duration after) throws InterruptedException {
            long end = System.nanoTime() + after.toNanos();
            await("the phase to run " + after.toMillis() + " ms", after.plusSeconds(5), () -> System.nanoTime() > end);
            phases.put(phase, (ok.get() - phaseOk) + " served, " + (failures.get() - phaseFailed) + " failed");
            mark(phase);
        }

        void stop() throws InterruptedException {
            running.set(false);
            for (Thread t : threads) {
                t.join(15_000);
            }
        }

        Map<String, String> report() {
            Map<String, String> all = new java.util.TreeMap<>(phases);
            all.put("total", ok.get() + " served, " + failures.get() + " failed"
                    + (problems.isEmpty() ? "" : ", first problems " + problems.subList(0, Math.min(5, problems.size()))));
            return all;
        }
    }

    private static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        Awaitility.await(what).atMost(timeout).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                .until(condition::getAsBoolean);
    }
}
