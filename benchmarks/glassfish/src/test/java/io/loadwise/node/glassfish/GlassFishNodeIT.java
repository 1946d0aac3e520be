package io.loadwise.node.glassfish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.node.provision.NodeSpec;
import io.loadwise.node.provision.RunningNode;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongPredicate;
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
 * JVM, with the probe WAR deployed: the scenario's capacity settings reach the server and its AMX
 * monitoring MBeans report worker threads and JDBC connections held by concurrent requests.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GlassFishNodeIT {

    private static final int HEAP_MB = 200;
    private static final int WORKERS = 6;
    private static final int QUEUE = 50;
    private static final int JDBC_POOL = 4;
    private static final Duration POLL_LIMIT = Duration.ofSeconds(60);
    /** Pause between two reads of a statistic: spares the server a request storm. */
    private static final long POLL_INTERVAL_MILLIS = 100;

    @TempDir
    static Path temp;

    private static Server database;
    /** Keeps the in-memory database alive and proves GlassFish logs in with the same (empty) password. */
    private static Connection databaseOwner;
    private static GlassFishProvisioner provisioner;
    private static RunningNode node;
    private static Path domainDir;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeAll
    static void provisionNode() throws Exception {
        database = Server.createTcpServer("-tcpPort", "0", "-tcpAllowOthers", "-ifNotExists").start();
        // ';' and '=' in the URL exercise asadmin's property escaping.
        String dbUrl = "jdbc:h2:tcp://127.0.0.1:" + database.getPort() + "/mem:probe;DB_CLOSE_DELAY=-1";
        databaseOwner = DriverManager.getConnection(dbUrl, "sa", "");
        Path h2Jar = Path.of(Server.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path war = ProbeWar.build(temp.resolve("probe.war"));
        NodeSpec spec = new NodeSpec("gf-it", 0, HEAP_MB, WORKERS, QUEUE, JDBC_POOL, war, "/probe",
                List.of(h2Jar), dbUrl, "sa", "");
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
        assertEquals(WORKERS, stat(MonitoringNames.threadPool("http-listener-1"), "maxthreads"));
        assertEquals(QUEUE, stat(MonitoringNames.connectionQueue("http-listener-1"), "maxqueued"));
        assertEquals(JDBC_POOL, stat(MonitoringNames.jdbcPoolConfig(GlassFishProvisioner.TRADE_POOL), "MaxPoolSize"));
        assertEquals(HEAP_MB * 1024L * 1024L, stat(MonitoringNames.memory(), "maxheapsize-count"));
    }

    @Test
    @Order(2)
    void monitoringReportsBusyWorkersAndUsedConnectionsUnderLoad() throws Exception {
        String jdbcPool = MonitoringNames.jdbcPool(GlassFishProvisioner.TRADE_POOL);
        String threadPool = MonitoringNames.threadPool("http-listener-1");
        // The pool and its monitoring MBean come to life with the first connection request.
        assertEquals(-1, optionalStat(jdbcPool, "numconnused"), "pool statistics before any connection");

        List<CompletableFuture<HttpResponse<String>>> holders = new ArrayList<>();
        for (int i = 0; i < JDBC_POOL; i++) {
            holders.add(HTTP.sendAsync(get("probe/hold"), HttpResponse.BodyHandlers.ofString()));
        }
        try {
            awaitStat(jdbcPool, "numconnused", used -> used == JDBC_POOL);
            // The request reading the statistic is busy too.
            assertTrue(stat(threadPool, "currentthreadsbusy") >= JDBC_POOL + 1, "busy HTTP workers");
            assertTrue(stat(MonitoringNames.httpRequests(), "countrequests") > 0, "HTTP requests counted");
        } finally {
            send("probe/release");
        }
        for (CompletableFuture<HttpResponse<String>> holder : holders) {
            HttpResponse<String> response = holder.get();
            assertEquals(200, response.statusCode(), response.body());
            assertEquals("held 1", response.body());
        }
        awaitStat(jdbcPool, "numconnused", used -> used == 0);
        assertEquals(JDBC_POOL, stat(jdbcPool, "numconnfree"), "released connections return to the pool");
    }

    private static long stat(String mbean, String attribute) throws Exception {
        long value = optionalStat(mbean, attribute);
        if (value < 0) {
            throw new AssertionError(mbean + " is not registered");
        }
        return value;
    }

    /** The statistic, or -1 when its MBean does not exist (yet). */
    private static long optionalStat(String mbean, String attribute) throws Exception {
        URI uri = node.applicationUri().resolve("probe/stat?mbean=" + URLEncoder.encode(mbean, StandardCharsets.UTF_8)
                + "&attr=" + URLEncoder.encode(attribute, StandardCharsets.UTF_8));
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(90)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 404 && response.body().equals("absent")) {
            return -1;
        }
        assertEquals(200, response.statusCode(), uri + " answered " + response.body());
        return Long.parseLong(response.body().trim());
    }

    private static void awaitStat(String mbean, String attribute, LongPredicate condition) throws Exception {
        long deadline = System.nanoTime() + POLL_LIMIT.toNanos();
        long value;
        do {
            value = optionalStat(mbean, attribute);
            if (condition.test(value)) {
                return;
            }
            Thread.sleep(POLL_INTERVAL_MILLIS);
        } while (System.nanoTime() < deadline);
        throw new AssertionError(mbean + " " + attribute + " is still " + value + " after " + POLL_LIMIT);
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

    private static Path workDir() {
        String dir = System.getProperty("loadwise.glassfish.work");
        return dir != null ? Path.of(dir) : temp.resolve("domains");
    }
}
