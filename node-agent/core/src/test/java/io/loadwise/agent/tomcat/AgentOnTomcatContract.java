package io.loadwise.agent.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.wire.AgentMetricsDocument;
import io.loadwise.wire.MetricsJson;
import io.loadwise.wire.OrcaLoadReport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.ContextResource;
import org.apache.tomcat.util.scan.StandardJarScanner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a drop-in agent JAR must do on a real embedded Tomcat: the built JAR goes into WEB-INF/lib of a
 * web application with a container-managed DBCP2 pool on H2, and nothing registers the agent but its
 * web-fragment.xml. Shared by the jakarta (Tomcat 11) and javax (Tomcat 9) flavours; it only uses
 * Tomcat API that is the same in both, and each flavour adds two servlets in its own servlet API.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class AgentOnTomcatContract {

    /** Shared secret configured for the endpoints. */
    protected static final String SECRET = "s3cret";
    /** JNDI name (under java:comp/env) of the test pool, whose maxTotal is 8. */
    public static final String DATASOURCE = "jdbc/loadwise";
    /** Counted down by the hold-db servlet once it holds a pooled connection. */
    public static final CountDownLatch DB_HELD = new CountDownLatch(1);
    /** The hold-db servlet returns its connection when this opens. */
    public static final CountDownLatch DB_RELEASE = new CountDownLatch(1);

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    static Path base;
    private Tomcat tomcat;
    private String root;

    /**
     * Adds to the context a servlet at {@code /session} that creates a session and answers 200, and one
     * at {@code /hold-db} that borrows a connection from {@link #DATASOURCE}, counts down
     * {@link #DB_HELD}, waits for {@link #DB_RELEASE} and answers "released".
     */
    protected abstract void addTestServlets(Context context);

    /** The JAR under test, named by the build. */
    private static Path agentJar() {
        Path jar = Path.of(System.getProperty("loadwise.agent.jar"));
        assertTrue(Files.isRegularFile(jar), "build the agent JAR first: " + jar);
        return jar;
    }

    @BeforeAll
    void startTomcat() throws Exception {
        Path lib = Files.createDirectories(base.resolve("app/WEB-INF/lib"));
        Files.copy(agentJar(), lib.resolve("loadwise-agent.jar"));
        tomcat = new Tomcat();
        tomcat.setBaseDir(base.resolve("tomcat").toString());
        tomcat.setHostname("127.0.0.1");
        tomcat.setPort(0);
        tomcat.getConnector().setProperty("address", "127.0.0.1");
        tomcat.enableNaming();
        tomcat.setAddDefaultWebXmlToWebapp(false);
        Context context = tomcat.addWebapp("/app", base.resolve("app").toString());
        // Only WEB-INF/lib is scanned for fragments: the agent must come from the dropped-in JAR.
        StandardJarScanner scanner = new StandardJarScanner();
        scanner.setScanClassPath(false);
        context.setJarScanner(scanner);
        context.addParameter("loadwise.agent.secret", SECRET);
        context.addParameter("loadwise.agent.header.interval.ms", "0");
        context.addParameter("loadwise.agent.sample.full.ms", "200");
        context.getNamingResources().addResource(dataSource());
        addTestServlets(context);
        tomcat.start();
        assertEquals(LifecycleState.STARTED, context.getState());
        root = "http://127.0.0.1:" + tomcat.getConnector().getLocalPort() + "/app";
    }

    private ContextResource dataSource() {
        ContextResource r = new ContextResource();
        r.setName(DATASOURCE);
        r.setType("javax.sql.DataSource");
        r.setAuth("Container");
        r.setProperty("driverClassName", "org.h2.Driver");
        r.setProperty("url", "jdbc:h2:mem:" + getClass().getSimpleName() + ";DB_CLOSE_DELAY=-1");
        r.setProperty("username", "sa");
        r.setProperty("password", "");
        r.setProperty("maxTotal", "8");
        return r;
    }

    @AfterAll
    void stopTomcat() throws Exception {
        DB_RELEASE.countDown();
        if (tomcat != null) {
            tomcat.stop();
            tomcat.destroy();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals("loadwise-agent-sampler"))) {
                assertTrue(System.nanoTime() < deadline, "sampler thread still running after undeploy");
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20)); // poll interval
            }
        }
    }

    @Test
    void reportsThreadPoolSessionAndJdbcPoolMetricsOfTheRealServer() throws Exception {
        assertEquals(200, get("/session", false).statusCode());
        CompletableFuture<HttpResponse<String>> holding = HTTP.sendAsync(
                HttpRequest.newBuilder(URI.create(root + "/hold-db")).build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(DB_HELD.await(10, TimeUnit.SECONDS), "servlet never got a pooled connection");

        AgentMetricsDocument doc = pollMetrics(d -> d.metrics().getOrDefault("AMX_JDBC_ACTC", 0.0) >= 1
                && d.metrics().getOrDefault("AMX_SESSIONS_ACT", 0.0) >= 1);
        Map<String, Double> m = doc.metrics();
        assertEquals("jmx:tomcat", doc.sources().get("appserver"));
        assertEquals("mxbean", doc.sources().get("jvm"));
        assertTrue(doc.sources().get("os").startsWith("sigar") || doc.sources().get("os").startsWith("java"));
        assertEquals(1.0, m.get("AMX_JDBC_ACTC"));
        assertEquals(8.0, m.get("AMX_JDBC_MAXC"));
        assertEquals(12.5, m.get("AMX_JDBC_ACTC%"), 1e-9);
        assertEquals(0.0, m.get("AMX_JDBC_WAIT"), "DBCP's pool counts its waiters: one connection of 8 held, none");
        assertTrue(m.get("AMX_CONNS_Q_THRBSY") >= 1, "the held request occupies a worker: " + m);
        // the percentage comes from the 100 ms policy sample, the count from the last full one
        assertTrue(m.get("AMX_CONNS_Q_THRBSY%") >= 100.0 / m.get("AMX_CONNS_Q_THRDSMAX") - 1e-9, m.toString());
        assertTrue(m.get("AMX_CONNS_Q_THRBSY%") <= 100.0);
        assertTrue(m.get("AMX_CONNS_OPEN") >= 1);
        assertTrue(m.get("AMX_RQST_TOTAL") >= 1);
        assertTrue(m.get("JVM_HEAP_USED%") > 0 && m.get("JVM_HEAP_USED%") < 100);
        assertTrue(m.containsKey("OS_MEM_USED%"));
        assertTrue(doc.timestampMillis() > System.currentTimeMillis() - 60_000);
        // Tomcat without a shared <Executor> exposes no queue: absent, never reported as 0
        assertFalse(m.containsKey("AMX_CONNS_Q_USED%"), "not exposed by this Tomcat, must be absent");
        assertFalse(m.containsKey("AMX_CONNS_QD"));
        assertFalse(m.containsKey("AMX_CONNS_DENIED"));

        DB_RELEASE.countDown();
        assertEquals("released", holding.get(10, TimeUnit.SECONDS).body());
    }

    @Test
    void attachesTheOrcaHeaderToApplicationResponses() throws Exception {
        pollMetrics(d -> d.metrics().getOrDefault("AMX_SESSIONS_ACT", 0.0) >= 1);
        HttpResponse<String> response = get("/session", false);
        String header = response.headers().firstValue(OrcaLoadReport.HEADER_NAME).orElse(null);
        assertNotNull(header, "no " + OrcaLoadReport.HEADER_NAME + " header on an application response");
        assertTrue(header.startsWith("TEXT "), header);
        Map<String, Double> report = OrcaLoadReport.parse(header);
        assertTrue(report.get("AMX_SESSIONS_ACT") >= 1, header);
        assertTrue(report.containsKey("JVM_HEAP_USED%"), header);
        assertTrue(report.containsKey("AMX_CONNS_Q_THRBSY%"), header);
        // rps_fractional is there from the second sample on (0 when nothing completed); application_utilization
        // only when a request completed in the last second, which this test does not arrange
        assertTrue(report.containsKey("APP_RQST_RATE"), header);
    }

    @Test
    void endpointsRequireTheSharedSecret() throws Exception {
        HttpResponse<String> denied = get("/loadwise-agent/metrics", false);
        assertEquals(401, denied.statusCode());
        assertTrue(denied.headers().firstValue("WWW-Authenticate").isPresent());
        assertFalse(denied.body().contains("OS_"), "no metrics leak without the secret");
        HttpResponse<String> bearer = HTTP.send(HttpRequest.newBuilder(URI.create(root + "/loadwise-agent/metrics"))
                .header("Authorization", "Bearer " + SECRET).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, bearer.statusCode());
        assertEquals(401, HTTP.send(HttpRequest.newBuilder(URI.create(root + "/loadwise-agent/metrics"))
                .header("X-Loadwise-Secret", "wrong").build(), HttpResponse.BodyHandlers.ofString()).statusCode());
    }

    @Test
    void htmlPageListsTheMetrics() throws Exception {
        pollMetrics(d -> d.metrics().containsKey("AMX_CONNS_Q_THRBSY%"));
        HttpResponse<String> page = get("/loadwise-agent/metrics.html", true);
        assertEquals(200, page.statusCode());
        assertTrue(page.headers().firstValue("Content-Type").orElse("").startsWith("text/html"));
        assertTrue(page.body().contains("<td>AMX_CONNS_Q_THRBSY%</td>"), page.body());
        assertTrue(page.body().contains("source: jmx:tomcat"));
        assertEquals(404, get("/loadwise-agent/nope", true).statusCode());
    }

    /** The application's URL, {@code http://127.0.0.1:<port>/app}. */
    protected String root() {
        return root;
    }

    /** Polls the metrics endpoint (with the secret) until the document satisfies {@code until}, at most 15 s. */
    protected AgentMetricsDocument pollMetrics(Predicate<AgentMetricsDocument> until) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (true) {
            HttpResponse<String> response = get("/loadwise-agent/metrics", true);
            assertEquals(200, response.statusCode(), response.body());
            assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
            AgentMetricsDocument doc = MetricsJson.parse(response.body());
            if (until.test(doc)) {
                return doc;
            }
            assertTrue(System.nanoTime() < deadline, "metrics never reached the expected state: " + doc);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // poll interval
        }
    }

    private HttpResponse<String> get(String path, boolean withSecret) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(root + path)).timeout(Duration.ofSeconds(10));
        if (withSecret) {
            request.header("X-Loadwise-Secret", SECRET);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
