package io.loadwise.node.glassfish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.agent.wire.AgentMetricsDocument;
import io.loadwise.agent.wire.MetricsJson;
import io.loadwise.node.provision.NodeSpec;
import io.loadwise.node.provision.RunningNode;
import io.loadwise.node.provision.WarRepackager;
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
 * JVM, running the trade app with the Loadwise agent (jakarta JAR) and a probe fragment in WEB-INF/lib.
 * The scenario's capacity settings reach the server; the trade app works on the container's pool; and
 * while probe requests hold worker threads and every pooled connection, both the AMX MBeans and the
 * agent's metrics endpoint report them.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GlassFishNodeIT {

    private static final int HEAP_MB = 200;
    private static final int WORKERS = 6;
    private static final int QUEUE = 50;
    private static final int JDBC_POOL = 4;
    private static final String LISTENER = "http-listener-1";
    private static final Duration POLL_LIMIT = Duration.ofSeconds(60);
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
    }

    @AfterAll
    static void stopEverything() throws Exception {
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
    void tradeAppRunsOnTheContainersPool() throws Exception {
        assertEquals("UP", send("health").strip());
        send("config?action=buildDB&users=20&quotes=20");
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> response = HTTP.send(get("scenario"), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response.body());
            assertTrue(response.headers().firstValue("X-Trade-Action").isPresent(), "trade action header");
        }
    }

    @Test
    @Order(3)
    void agentAndMonitoringReportBusyWorkersAndUsedConnections() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> holders = new ArrayList<>();
        for (int i = 0; i < JDBC_POOL; i++) {
            holders.add(HTTP.sendAsync(get("probe/hold"), HttpResponse.BodyHandlers.ofString()));
        }
        try {
            // Busy threads come with the agent's full sample (every second), connections with its fast one.
            Map<String, Double> metrics = awaitAgent(m -> m.getOrDefault("AMX_JDBC_ACTC", 0.0) == JDBC_POOL
                    && m.getOrDefault("AMX_CONNS_Q_THRBSY", 0.0) >= JDBC_POOL, holders);
            assertEquals(JDBC_POOL, metrics.get("AMX_JDBC_MAXC"), metrics.toString());
            assertEquals(100.0, metrics.get("AMX_JDBC_ACTC%"), 1e-9, metrics.toString());
            assertEquals(WORKERS, metrics.get("AMX_CONNS_Q_THRDSMAX"), metrics.toString());
            assertEquals(QUEUE, metrics.get("AMX_CONNS_Q_MAXSIZE"), metrics.toString());
            assertTrue(metrics.get("AMX_CONNS_Q_THRBSY") >= JDBC_POOL, metrics.toString());
            assertTrue(metrics.get("AMX_CONNS_Q_THRBSY%") >= 100.0 * JDBC_POOL / WORKERS - 1e-9, metrics.toString());
            assertTrue(metrics.get("AMX_RQST_TOTAL") > 0, metrics.toString());

            assertEquals(JDBC_POOL, stat(MonitoringNames.jdbcPool(GlassFishProvisioner.TRADE_POOL), "numconnused"));
            // The request reading the statistic is busy too.
            assertTrue(stat(MonitoringNames.threadPool(LISTENER), "currentthreadsbusy") >= JDBC_POOL + 1);
        } finally {
            send("probe/release");
        }
        for (CompletableFuture<HttpResponse<String>> holder : holders) {
            HttpResponse<String> response = holder.get();
            assertEquals(200, response.statusCode(), response.body());
            assertEquals("held 1", response.body());
        }
        awaitAgent(m -> m.getOrDefault("AMX_JDBC_ACTC", -1.0) == 0, List.of());
        assertEquals(0, stat(MonitoringNames.jdbcPool(GlassFishProvisioner.TRADE_POOL), "numconnused"));
    }

    /** Polls the agent's metrics until they satisfy the condition; fails at once if a holding request ended. */
    private static Map<String, Double> awaitAgent(Predicate<Map<String, Double>> condition,
            List<CompletableFuture<HttpResponse<String>>> holding) throws Exception {
        long deadline = System.nanoTime() + POLL_LIMIT.toNanos();
        AgentMetricsDocument document;
        do {
            for (CompletableFuture<HttpResponse<String>> request : holding) {
                if (request.isDone()) {
                    HttpResponse<String> response = request.get();
                    throw new AssertionError("a holding request ended early: " + response.statusCode() + " "
                            + response.body());
                }
            }
            document = MetricsJson.parse(send("loadwise-agent/metrics"));
            assertEquals("jmx:glassfish", document.sources().get("appserver"), document.toString());
            if (condition.test(document.metrics())) {
                return document.metrics();
            }
            Thread.sleep(POLL_INTERVAL_MILLIS);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("agent metrics did not get there within " + POLL_LIMIT + ": " + document);
    }

    /** One AMX statistic read inside the server by the probe: a CountStatistic's count, a RangeStatistic's current. */
    private static long stat(String mbean, String attribute) throws Exception {
        String body = send("probe/stat?mbean=" + URLEncoder.encode(mbean, StandardCharsets.UTF_8)
                + "&attr=" + URLEncoder.encode(attribute, StandardCharsets.UTF_8));
        return Long.parseLong(body.strip());
    }

    private static String send(String path) throws Exception {
        HttpResponse<String> response = HTTP.send(get(path), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), path + " answered " + response.body());
        return response.body();
    }

    private static HttpRequest get(String path) {
        URI uri = node.applicationUri().resolve(path);
        return HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(90)).GET().build();
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
