package io.loadwise.node.glassfish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.ConfigValidator;
import io.loadwise.dispatcher.config.HealthCheckConfig;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.runtime.Dispatcher;
import io.loadwise.dispatcher.runtime.ModeListenerFactory;
import io.loadwise.node.KillReadmission;
import io.loadwise.policy.AgentSample;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.node.provision.NodeSpec;
import io.loadwise.node.provision.ProvisioningException;
import io.loadwise.node.provision.RunningNode;
import io.loadwise.node.provision.WarRepackager;
import io.loadwise.wire.AgentMetricsDocument;
import io.loadwise.wire.MetricsJson;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.h2.tools.Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * One real GlassFish 7 domain provisioned by {@link GlassFishProvisioner} against an H2 TCP server in this
 * JVM, running the trade app with the Loadwise agent (jakarta JAR) and a probe fragment in WEB-INF/lib,
 * behind a real dispatcher (HTTP cluster) whose node monitor polls the agent. The scenario's capacity
 * settings reach the server; the trade app works on the container's pool through the dispatcher; and
 * while probe requests hold worker threads and every pooled connection, the AMX MBeans, the agent's
 * metrics endpoint and the dispatcher's view of the node all report them.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GlassFishNodeIT {

    private static final int HEAP_MB = 200;
    private static final int WORKERS = 6;
    private static final int QUEUE = 50;
    private static final int JDBC_POOL = 4;
    private static final String LISTENER = "http-listener-1";
    private static final Duration POLL_LIMIT = Duration.ofSeconds(90);
    /** Also the agent poll's timeout: a loaded build machine needs more than the 1 s minimum to connect. */
    private static final int AGENT_POLL_MILLIS = 2_000;
    private static final int AGENT_EXPIRY_MILLIS = 10_000;
    /** A node whose first poll failed is tried again soon, not after the seed's 60 s. */
    private static final int AGENT_REPROBE_MILLIS = 1_000;
    /** Holding requests wait through the dispatcher for as long as the polls take on a loaded machine. */
    private static final int RESPONSE_TIMEOUT_MILLIS = 150_000;
    /** Pause between two reads of a statistic: spares the server a request storm. */
    private static final long POLL_INTERVAL_MILLIS = 100;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @TempDir
    static Path temp;

    private static Server database;
    /** Keeps the in-memory database alive and proves GlassFish logs in with the same (empty) password. */
    private static Connection databaseOwner;
    private static GlassFishProvisioner provisioner;
    private static RunningNode node;
    private static Path domainDir;
    private static Transport transport;
    private static Dispatcher dispatcher;
    /** The trade app through the dispatcher's HTTP listener. */
    private static URI viaDispatcher;

    @BeforeAll
    static void provisionNode() throws Exception {
        database = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
        String dbUrl = "jdbc:h2:tcp://127.0.0.1:" + database.getPort() + "/mem:trade;DB_CLOSE_DELAY=-1";
        databaseOwner = DriverManager.getConnection(dbUrl, "sa", "");

        Path artifacts = Path.of(System.getProperty("loadwise.node.artifacts", "target/node-artifacts"));
        Path war = WarRepackager.withLibraries(artifact(artifacts, "loadwise-trade-app.war"),
                List.of(artifact(artifacts, "loadwise-agent-jakarta.jar"),
                        ProbeFragment.build(temp.resolve("loadwise-glassfish-probe.jar"))),
                temp.resolve("trade.war"));
        NodeSpec spec = new NodeSpec("gf-it", 0, HEAP_MB, WORKERS, QUEUE, JDBC_POOL, war, "/trade",
                List.of(artifact(artifacts, "h2.jar"), artifact(artifacts, "slf4j-api.jar"),
                        artifact(artifacts, "slf4j-jdk14.jar")),
                dbUrl, "sa", "");
        provisioner = new GlassFishProvisioner(GlassFishInstallation.fromSystemProperty(), workDir());
        node = provisioner.start(spec);
        domainDir = provisioner.server().domainDir();
        startDispatcher();
    }

    private static void startDispatcher() throws Exception {
        NodeConfig gf = new NodeConfig(node.name(), node.host() + ":" + node.httpPort(), null, null, null, null);
        // The node monitor polls agents only for policies that read their metrics. least-sessions does and,
        // unlike jvm-aware, never excludes a node (jvm-aware rightly refuses a node whose CPU is at 100 %,
        // which a loaded build machine is).
        ClusterConfig cluster = ClusterConfig.builder().name("trade").mode(Mode.HTTP).listen("127.0.0.1:0")
                .policy("least-sessions").responseTimeoutMs(RESPONSE_TIMEOUT_MILLIS)
                .agentPath(node.contextPath() + "/loadwise-agent/metrics").agentPollIntervalMs(AGENT_POLL_MILLIS)
                .agentExpiryMs(AGENT_EXPIRY_MILLIS).agentReprobeMs(AGENT_REPROBE_MILLIS).nodes(List.of(gf)).build();
        LoadwiseConfig config = new LoadwiseConfig(null, null, List.of(cluster));
        PolicyRegistry policies = PolicyRegistry.load();
        assertEquals(List.of(), new ConfigValidator(policies).validate(config));
        transport = new Transport(1);
        dispatcher = new Dispatcher(config, null, policies, transport, new ModeListenerFactory());
        dispatcher.start("unused", false);
        InetSocketAddress listening = dispatcher.boundAddress("trade");
        viaDispatcher = URI.create("http://127.0.0.1:" + listening.getPort() + node.contextPath() + "/");
        // The policy uses the node once the monitor has read its agent.
        await("the dispatcher's first agent sample", GlassFishNodeIT::dispatcherMetrics, m -> !m.isEmpty(), List.of());
    }

    @AfterAll
    static void stopEverything() throws Exception {
        if (dispatcher != null) {
            dispatcher.close();
        }
        if (transport != null) {
            transport.close();
        }
        if (provisioner != null) {
            provisioner.stop();
        }
        if (databaseOwner != null) {
            databaseOwner.close();
        }
        if (database != null) {
            database.stop();
        }
        if (domainDir != null) {
            assertEquals(List.of(), DomainProcesses.of(domainDir), "GlassFish processes left after stop()");
        }
    }

    @Test
    @Order(1)
    void scenarioCapacityReachesTheServer() throws Exception {
        assertEquals(WORKERS, stat(MonitoringNames.threadPool(LISTENER), "maxthreads"));
        assertEquals(QUEUE, stat(MonitoringNames.connectionQueue(LISTENER), "maxqueued"));
        assertEquals(JDBC_POOL, stat(MonitoringNames.jdbcPoolConfig(GlassFishProvisioner.TRADE_POOL), "MaxPoolSize"));
        assertEquals(HEAP_MB * 1024L * 1024L, stat(MonitoringNames.memory(), "maxheapsize-count"));
    }

    @Test
    @Order(2)
    void tradeAppRunsOnTheContainersPoolThroughTheDispatcher() throws Exception {
        assertEquals("UP", send(viaDispatcher, "health").strip());
        send(viaDispatcher, "config?action=buildDB&users=20&quotes=20");
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> response = HTTP.send(get(viaDispatcher, "scenario"), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response.body());
            assertTrue(response.headers().firstValue("X-Trade-Action").isPresent(), "trade action header");
        }
    }

    @Test
    @Order(3)
    void agentAndDispatcherReportBusyWorkersAndUsedConnections() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> holders = new ArrayList<>();
        for (int i = 0; i < JDBC_POOL; i++) {
            holders.add(HTTP.sendAsync(get(viaDispatcher, "probe/hold"), HttpResponse.BodyHandlers.ofString()));
        }
        try {
            // Busy threads come with the agent's full sample (every second), connections with its fast one.
            Predicate<Map<String, Double>> allHeld = m -> m.getOrDefault("AMX_JDBC_ACTC", 0.0) == JDBC_POOL
                    && m.getOrDefault("AMX_CONNS_Q_THRBSY", 0.0) >= JDBC_POOL;
            Map<String, Double> metrics = await("the agent's metrics", GlassFishNodeIT::agentMetrics, allHeld, holders);
            assertEquals(JDBC_POOL, metrics.get("AMX_JDBC_MAXC"), metrics.toString());
            assertEquals(100.0, metrics.get("AMX_JDBC_ACTC%"), 1e-9, metrics.toString());
            assertEquals(WORKERS, metrics.get("AMX_CONNS_Q_THRDSMAX"), metrics.toString());
            assertEquals(QUEUE, metrics.get("AMX_CONNS_Q_MAXSIZE"), metrics.toString());
            assertTrue(metrics.get("AMX_CONNS_Q_THRBSY%") >= 100.0 * JDBC_POOL / WORKERS - 1e-9, metrics.toString());
            assertTrue(metrics.get("AMX_RQST_TOTAL") > 0, metrics.toString());

            // The dispatcher's node monitor polls the same endpoint: the policies see what the agent saw.
            Map<String, Double> seen = await("the dispatcher's view of the node", GlassFishNodeIT::dispatcherMetrics,
                    allHeld, holders);
            assertEquals(100.0, seen.get("AMX_JDBC_ACTC%"), 1e-9, seen.toString());
            assertTrue(seen.get("AMX_CONNS_Q_THRBSY%") >= 100.0 * JDBC_POOL / WORKERS - 1e-9, seen.toString());

            assertEquals(JDBC_POOL, stat(MonitoringNames.jdbcPool(GlassFishProvisioner.TRADE_POOL), "numconnused"));
            // The request reading the statistic is busy too.
            assertTrue(stat(MonitoringNames.threadPool(LISTENER), "currentthreadsbusy") >= JDBC_POOL + 1);
        } finally {
            send(node.applicationUri(), "probe/release");
        }
        for (CompletableFuture<HttpResponse<String>> holder : holders) {
            HttpResponse<String> response = holder.get();
            assertEquals(200, response.statusCode(), response.body());
            assertEquals("held 1", response.body());
        }
        await("the dispatcher's view of the node", GlassFishNodeIT::dispatcherMetrics,
                m -> m.getOrDefault("AMX_JDBC_ACTC%", -1.0) == 0, List.of());
        assertEquals(0, stat(MonitoringNames.jdbcPool(GlassFishProvisioner.TRADE_POOL), "numconnused"));
    }

    /**
     * Time to readmission after a kill, the same measurement as the other servers' ({@code KillReadmission}):
     * SIGKILL under light load through two dispatchers with the default agent timings (jvm-aware and
     * round-robin, each with a stub in this JVM as the always-up second node), then {@code start-domain}
     * again. Last, since it replaces the server process.
     */
    @Test
    @Order(4)
    void aKilledServerIsSelectedAgainWithinTwoSecondsOfAnsweringAfterItsRestart() throws Exception {
        HttpServer stub = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        stub.createContext("/", exchange -> {
            byte[] body = "UP".getBytes(StandardCharsets.UTF_8);
            // the agent path answers 404: jvm-aware counts the stub as an average node
            exchange.sendResponseHeaders(exchange.getRequestURI().getPath().contains("loadwise-agent") ? 404 : 200,
                    body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        stub.start();
        List<Dispatcher> fronts = new ArrayList<>();
        try {
            List<KillReadmission.Front> measured = new ArrayList<>();
            for (String policy : List.of("jvm-aware", "round-robin")) {
                NodeConfig gf = new NodeConfig(node.name(), node.host() + ":" + node.httpPort(), null, null, null, null);
                NodeConfig other = new NodeConfig("other", "127.0.0.1:" + stub.getAddress().getPort(), null, null,
                        null, null);
                // GlassFish opens its HTTP listener some 20 s before the application serves (404 meanwhile): an
                // active health check on the application keeps the node out until it answers 200, whatever the
                // timing of the connect hold-out and the agent probe (docs/app-servers.md recommends it)
                ClusterConfig cluster = ClusterConfig.builder().name("readmission").mode(Mode.HTTP)
                        .listen("127.0.0.1:0").policy(policy).agentPath(node.contextPath() + "/loadwise-agent/metrics")
                        .healthCheck(new HealthCheckConfig(node.contextPath() + "/health", 250, 200, 1, 1, null))
                        .nodes(List.of(gf, other)).build();
                LoadwiseConfig config = new LoadwiseConfig(null, null, List.of(cluster));
                PolicyRegistry policies = PolicyRegistry.load();
                assertEquals(List.of(), new ConfigValidator(policies).validate(config));
                Dispatcher front = new Dispatcher(config, null, policies, transport, new ModeListenerFactory());
                fronts.add(front);
                front.start("unused", false);
                measured.add(new KillReadmission.Front(policy, front, "readmission", node.name(),
                        node.contextPath() + "/health"));
            }
            GlassFishServer server = provisioner.server();
            List<KillReadmission.Result> results = KillReadmission.measure("glassfish", measured,
                    node.applicationUri().resolve("health"), server::kill,
                    () -> CompletableFuture.runAsync(() -> {
                        try {
                            server.startAgain(); // blocks until GlassFish's admin answers; the test polls the app
                        } catch (ProvisioningException e) {
                            throw new IllegalStateException(e);
                        }
                    }), Duration.ofMinutes(4));
            StringBuilder rows = new StringBuilder();
            results.forEach(r -> rows.append(r.row()).append('\n'));
            // for the results table: benchmarks/results/2026-11-23-servers/servers.md
            Path out = Path.of("target", "glassfish-readmission.txt");
            Files.writeString(out, rows, StandardCharsets.UTF_8);
        } finally {
            for (Dispatcher front : fronts) {
                front.close();
            }
            stub.stop(0);
        }
    }

    /** The agent's metrics, straight from the node. */
    private static Map<String, Double> agentMetrics() throws Exception {
        AgentMetricsDocument document = MetricsJson.parse(send(node.applicationUri(), "loadwise-agent/metrics"));
        assertEquals("jmx:glassfish", document.sources().get("appserver"), document.toString());
        return document.metrics();
    }

    /** The agent sample the dispatcher's node monitor holds for the node (empty before the first poll). */
    private static Map<String, Double> dispatcherMetrics() {
        NodeState state = dispatcher.cluster("trade").node(node.name());
        AgentSample sample = state.latestAgentSample();
        return sample == null ? Map.of() : sample.metrics();
    }

    /** Polls until the metrics satisfy the condition; fails at once if a request meant to wait has ended. */
    private static Map<String, Double> await(String what, MetricsReader reader, Predicate<Map<String, Double>> condition,
            List<CompletableFuture<HttpResponse<String>>> holding) throws Exception {
        long deadline = System.nanoTime() + POLL_LIMIT.toNanos();
        Map<String, Double> metrics;
        do {
            for (CompletableFuture<HttpResponse<String>> request : holding) {
                if (request.isDone()) {
                    HttpResponse<String> response = request.get();
                    throw new AssertionError("a holding request ended early: " + response.statusCode() + " "
                            + response.body());
                }
            }
            metrics = reader.read();
            if (condition.test(metrics)) {
                return metrics;
            }
            Thread.sleep(POLL_INTERVAL_MILLIS);
        } while (System.nanoTime() < deadline);
        throw new AssertionError(what + " did not get there within " + POLL_LIMIT + ": " + metrics);
    }

    @FunctionalInterface
    private interface MetricsReader {
        Map<String, Double> read() throws Exception;
    }

    /** One AMX statistic read inside the server by the probe: a CountStatistic's count, a RangeStatistic's current. */
    private static long stat(String mbean, String attribute) throws Exception {
        String body = send(node.applicationUri(), "probe/stat?mbean=" + URLEncoder.encode(mbean, StandardCharsets.UTF_8)
                + "&attr=" + URLEncoder.encode(attribute, StandardCharsets.UTF_8));
        return Long.parseLong(body.strip());
    }

    private static String send(URI base, String path) throws Exception {
        HttpResponse<String> response = HTTP.send(get(base, path), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), base.resolve(path) + " answered " + response.body());
        return response.body();
    }

    private static HttpRequest get(URI base, String path) {
        return HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(90)).GET().build();
    }

    private static Path artifact(Path dir, String name) {
        Path file = dir.resolve(name);
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException(file + " is missing: run the module's build (mvn verify) so that"
                    + " maven-dependency-plugin copies it there");
        }
        return file;
    }

    private static Path workDir() {
        String dir = System.getProperty("loadwise.glassfish.work");
        return dir != null ? Path.of(dir) : temp.resolve("domains");
    }
}
