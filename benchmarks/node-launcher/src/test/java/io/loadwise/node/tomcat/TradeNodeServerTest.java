package io.loadwise.node.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.node.DatabaseProcess;
import io.loadwise.node.NodeLauncher;
import io.loadwise.node.NodeOptions;
import io.loadwise.node.TradeClient;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One node in this JVM (so its MBeans are in our platform MBean server) against the database in its
 * own JVM: the scenario runs, the knobs reach Tomcat and the pool, and the agent-style JAR is live.
 */
class TradeNodeServerTest {

    private static final int THREADS = 5;
    private static final int ACCEPT_QUEUE = 7;
    private static final int POOL = 3;
    private static final int REQUESTS = 100;

    @TempDir
    static Path work;
    private static DatabaseProcess database;
    private static TradeNodeServer server;
    private static URI base;

    @BeforeAll
    static void startDatabaseAndNode() throws Exception {
        NodeLauncher launcher = NodeLauncher.builder().workRoot(work.resolve("children"))
                .jvmOption("-XX:TieredStopAtLevel=1").jvmOption("-XX:+UseSerialGC").build();
        database = launcher.startDatabase(0, Duration.ofSeconds(30));
        NodeOptions options = new NodeOptions("VCN9", "127.0.0.1", 0, THREADS, ACCEPT_QUEUE, POOL,
                database.jdbcUrl(), null, List.of(fragmentJar(work.resolve("fake-agent.jar"))), null, false);
        server = TradeNodeServer.start(options, launcher.war(), work.resolve("tomcat"));
        base = URI.create("http://127.0.0.1:" + server.port() + "/trade/");
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (server != null) {
            server.close();
        }
        if (database != null) {
            database.close();
        }
    }

    @Test
    void scenarioRunsWithSessionsOrdersAndVisiblePoolMetrics() throws Exception {
        TradeClient client = new TradeClient(base);
        HttpResponse<String> built = client.get("config?action=buildDB&users=50&quotes=20");
        assertEquals(200, built.statusCode(), built.body());

        for (int i = 0; i < REQUESTS; i++) {
            client.scenario();
        }

        int logins = client.count("login");
        assertTrue(logins >= 1, client.actions().toString());
        assertEquals(REQUESTS, client.actions().values().stream().mapToInt(Integer::intValue).sum());
        assertTrue(client.sessionId().orElseThrow().endsWith(".VCN9"), client.sessionId().toString());
        assertEquals(client.count("buy") + client.count("sell"), countRows("trade_order"),
                "every buy and sell writes one order: " + client.actions());

        MBeanServer mbeans = ManagementFactory.getPlatformMBeanServer();
        ObjectName manager = new ObjectName("Catalina:type=Manager,host=localhost,context=/trade");
        assertEquals((long) logins + client.count("register"),
                ((Number) mbeans.getAttribute(manager, "sessionCounter")).longValue(),
                "a session per login and per registration: " + client.actions());

        ObjectName threadPool = only(mbeans.queryNames(new ObjectName("Catalina:type=ThreadPool,name=*"), null));
        assertEquals(-1, mbeans.getAttribute(threadPool, "maxThreads"), "the connector runs on the shared executor");
        assertEquals(100, mbeans.getAttribute(threadPool, "acceptCount"), "Tomcat's default listen backlog");
        ObjectName executor = new ObjectName("Catalina:type=Executor,name=" + TradeNodeServer.EXECUTOR_NAME);
        assertEquals(THREADS, mbeans.getAttribute(executor, "maxThreads"));
        assertEquals(ACCEPT_QUEUE, mbeans.getAttribute(executor, "maxQueueSize"), "a bounded request queue");
        assertEquals(0, mbeans.getAttribute(executor, "queueSize"), "nothing waits once the client is done");
        assertEquals(ACCEPT_QUEUE, server.requestQueueLimit());

        // Tomcat registers the pool itself; DBCP then adds "connectionpool=..." children for its connections.
        ObjectName pool = only(mbeans.queryNames(new ObjectName("Catalina:type=DataSource,*"), null).stream()
                .filter(name -> name.getKeyProperty("connectionpool") == null).collect(Collectors.toSet()));
        assertEquals("\"jdbc/TradeDB\"", pool.getKeyProperty("name"));
        assertEquals(POOL, mbeans.getAttribute(pool, "maxTotal"));
        assertEquals(0, mbeans.getAttribute(pool, "numActive"), "no request in flight holds a connection");
        int idle = (Integer) mbeans.getAttribute(pool, "numIdle");
        assertTrue(idle >= 1 && idle <= POOL, "the app's connections went back to this pool: numIdle " + idle);

        assertEquals("VCN9", mbeans.getAttribute(new ObjectName("Catalina:type=Engine"), "jvmRoute"));
    }

    @Test
    void agentJarInWebInfLibIsPartOfTheApplication() throws Exception {
        HttpResponse<String> response = new TradeClient(base).get("fragment-health");
        assertEquals(200, response.statusCode(), response.body());
        assertEquals("UP", response.body().strip());
    }

    @Test
    void configRejectsBadRequestsWithTheReason() throws Exception {
        TradeClient client = new TradeClient(base);
        HttpResponse<String> badSize = client.get("config?action=buildDB&users=0");
        assertEquals(400, badSize.statusCode());
        assertTrue(badSize.body().contains("users must be between 1 and 1000000, got 0"), badSize.body());
        HttpResponse<String> badAction = client.get("config?action=dropEverything");
        assertEquals(400, badAction.statusCode());
        assertTrue(badAction.body().contains("unknown or missing action"), badAction.body());
    }

    private static long countRows(String table) throws SQLException {
        try (Connection c = DriverManager.getConnection(database.jdbcUrl(), "sa", "");
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static ObjectName only(Set<ObjectName> names) {
        assertEquals(1, names.size(), names.toString());
        return names.iterator().next();
    }

    /** A JAR whose web fragment maps the app's health servlet at /fragment-health, as the agent maps its filter. */
    private static Path fragmentJar(Path jar) throws IOException {
        String fragment = """
                <?xml version="1.0" encoding="UTF-8"?>
                <web-fragment xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
                  <name>fake_agent</name>
                  <servlet>
                    <servlet-name>fragmentHealth</servlet-name>
                    <servlet-class>io.loadwise.trade.web.HealthServlet</servlet-class>
                  </servlet>
                  <servlet-mapping>
                    <servlet-name>fragmentHealth</servlet-name>
                    <url-pattern>/fragment-health</url-pattern>
                  </servlet-mapping>
                </web-fragment>
                """;
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new ZipEntry("META-INF/web-fragment.xml"));
            out.write(fragment.getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        return jar;
    }
}
