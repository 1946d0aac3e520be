package io.loadwise.servers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.loadwise.dispatcher.config.Affinity;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.ConfigValidator;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.runtime.Dispatcher;
import io.loadwise.dispatcher.runtime.ModeListenerFactory;
import io.loadwise.node.KillReadmission;
import io.loadwise.policy.AgentSample;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.wire.AgentMetricsDocument;
import io.loadwise.wire.FilterMetric;
import io.loadwise.wire.MetricsJson;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * What every server test checks, on one real server running the probe WAR with the agent: the agent
 * detects the server and its metrics arrive (the server's own and the filter's), requests held in the
 * application show as in flight and as the filter's queue and busy inputs, and a real dispatcher keeps a
 * session on the node by the route in the server's own JSESSIONID format. A second node (a stub in this
 * JVM) shows the dispatcher follows the route and does not just send everything to the one server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class AppServerNodeContract {

    static final String CONTEXT = "/probe";
    private static final Duration START_LIMIT = Duration.ofMinutes(4);
    private static final Duration POLL_LIMIT = Duration.ofSeconds(90);
    private static final long POLL_INTERVAL_MILLIS = 200;
    private static final int HELD = 3;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private ServerProcess server;
    private Path work;
    private URI app;
    private HttpServer stub;
    private Transport transport;
    private Dispatcher dispatcher;
    private URI viaDispatcher;
    private int port;
    private final List<Dispatcher> readmissionFronts = new ArrayList<>();

    /** Starts the server with {@code war} deployed at {@link #CONTEXT} and HTTP on {@code port}. */
    abstract ServerProcess start(Path war, Path work, int port) throws Exception;

    /** Starts the server again from what {@link #start} left in {@code work}, as an operator restarts it. */
    abstract ServerProcess restart(Path work, int port) throws Exception;

    /** The route the server puts in its session ids (set by {@link #start}). */
    abstract String route();

    /** How this server ends a session id that names {@code route} ({@code .wf1}, {@code :ol1}). */
    abstract String routeSuffix(String route);

    /** The agent's adapter name for this server. */
    abstract String adapter();

    /** The server metrics its mapping must deliver once a session exists. */
    abstract List<String> serverMetrics();

    @BeforeAll
    void startServerAndDispatcher() throws Exception {
        Path artifacts = Path.of(System.getProperty("loadwise.node.artifacts", "target/node-artifacts"));
        work = Path.of(System.getProperty("loadwise.servers.work", "target/server-work")).resolve(adapter());
        Files.createDirectories(work);
        Path war = ProbeWar.build(artifacts.resolve("loadwise-agent-jakarta.jar"), work.resolve("probe.war"));
        port = ServerProcess.freePort();
        server = start(war, work, port);
        app = URI.create("http://127.0.0.1:" + port + CONTEXT + "/");
        long deadline = System.nanoTime() + START_LIMIT.toNanos();
        while (!answers(app.resolve("probe/ping"))) {
            if (!server.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError(adapter() + " did not serve the probe within " + START_LIMIT + "; log: "
                        + server.log() + "\n" + tail(server.log()));
            }
            Thread.sleep(POLL_INTERVAL_MILLIS);
        }
        stub = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        stub.createContext("/", exchange -> {
            byte[] body = "other".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(exchange.getRequestURI().getPath().contains("loadwise-agent") ? 404 : 200,
                    body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        stub.start();
        startDispatcher(port);
    }

    private void startDispatcher(int port) throws Exception {
        NodeConfig real = new NodeConfig(adapter(), "127.0.0.1:" + port, null, null, route(), null);
        NodeConfig other = new NodeConfig("other", "127.0.0.1:" + stub.getAddress().getPort(), null, null, "other", null);
        // least-sessions polls the agents and never excludes a node (jvm-aware would, on a busy build machine)
        ClusterConfig cluster = ClusterConfig.builder().name("servers").mode(Mode.HTTP).listen("127.0.0.1:0")
                .policy("least-sessions").affinity(Affinity.COOKIE).responseTimeoutMs(120_000)
                .agentPath(CONTEXT + "/loadwise-agent/metrics").agentPollIntervalMs(1_000)
                .agentExpiryMs(10_000).agentReprobeMs(1_000).nodes(List.of(real, other)).build();
        LoadwiseConfig config = new LoadwiseConfig(null, null, List.of(cluster));
        PolicyRegistry policies = PolicyRegistry.load();
        assertEquals(List.of(), new ConfigValidator(policies).validate(config));
        transport = new Transport(1);
        dispatcher = new Dispatcher(config, null, policies, transport, new ModeListenerFactory());
        dispatcher.start("unused", false);
        viaDispatcher = URI.create("http://127.0.0.1:" + dispatcher.boundAddress("servers").getPort() + CONTEXT + "/");
    }

    @AfterAll
    void stopEverything() throws Exception {
        for (Dispatcher front : readmissionFronts) {
            front.close();
        }
        if (dispatcher != null) {
            dispatcher.close();
        }
        if (transport != null) {
            transport.close();
        }
        if (stub != null) {
            stub.stop(0);
        }
        if (server != null) {
            server.close();
            assertTrue(!server.isAlive(), adapter() + " still running");
        }
    }

    @Test
    @Order(1)
    void agentDetectsTheServerAndItsMetricsArrive() throws Exception {
        send(app, "probe/session", null);
        // the rate needs two samples to divide by the time between them
        Map<String, Double> metrics = await("the server's mapped metrics and the filter's", this::agentMetrics,
                m -> m.keySet().containsAll(serverMetrics()) && m.containsKey(FilterMetric.APP_RQST_RATE.metricName()),
                List.of());
        // for ./loadwise bench servers' results table: which metrics arrive on this server
        StringBuilder lines = new StringBuilder();
        new java.util.TreeMap<>(metrics).forEach((name, value) -> lines.append(name).append('=').append(value).append('\n'));
        Files.writeString(work.resolve("agent-metrics.txt"), lines, StandardCharsets.UTF_8);
        assertTrue(metrics.containsKey(FilterMetric.APP_RQST_INFLIGHT.metricName()), metrics.toString());
        assertTrue(metrics.containsKey(FilterMetric.APP_CAPACITY.metricName()), metrics.toString());
        assertTrue(metrics.containsKey("AMX_CONNS_Q_USED%"), "queue input (the filter's, if not the server's): " + metrics);
        assertTrue(metrics.containsKey("AMX_CONNS_Q_THRBSY%"), "busy input: " + metrics);
    }

    @Test
    @Order(2)
    void requestsHeldInTheApplicationAreInFlight() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> holders = new ArrayList<>();
        for (int i = 0; i < HELD; i++) {
            holders.add(HTTP.sendAsync(get(app.resolve("probe/hold"), null), HttpResponse.BodyHandlers.ofString()));
        }
        try {
            // the metrics request is in flight too while the sample is read, but the sample may predate it
            Map<String, Double> metrics = await("requests in flight", this::agentMetrics,
                    m -> m.getOrDefault(FilterMetric.APP_RQST_INFLIGHT.metricName(), 0.0) >= HELD, holders);
            double capacity = metrics.get(FilterMetric.APP_CAPACITY.metricName());
            assertTrue(capacity > 0, metrics.toString());
            // The busy input may come from a server MBean (WildFly's worker threads) read at another moment
            // than the filter's in-flight count: wait, while the requests are still held, for it to show them.
            Map<String, Double> busy = await("the busy input to show the held requests", this::agentMetrics,
                    m -> m.getOrDefault("AMX_CONNS_Q_THRBSY%", 0.0) > 0, holders);
            assertTrue(busy.get("AMX_CONNS_Q_THRBSY%") > 0, "busy input under load: " + busy);
        } finally {
            send(app, "probe/release", null);
        }
        for (CompletableFuture<HttpResponse<String>> holder : holders) {
            assertEquals("held", holder.get().body());
        }
        Map<String, Double> after = await("the rate and service times of the held requests", this::agentMetrics,
                m -> m.getOrDefault(FilterMetric.APP_RQST_P95TIME.metricName(), 0.0) > 0, List.of());
        assertTrue(after.get(FilterMetric.APP_RQST_AVETIME.metricName()) > 0, after.toString());
    }

    @Test
    @Order(3)
    void dispatcherSeesTheAgentAndKeepsSessionsOnTheRouteOfTheServersFormat() throws Exception {
        await("the dispatcher's agent sample", this::dispatcherMetrics,
                m -> m.containsKey("AMX_CONNS_Q_USED%"), List.of());
        HttpResponse<String> direct = HTTP.send(get(app.resolve("probe/session"), null), HttpResponse.BodyHandlers.ofString());
        String sessionId = direct.headers().allValues("Set-Cookie").stream()
                .filter(c -> c.startsWith("JSESSIONID=")).findFirst()
                .map(c -> c.substring("JSESSIONID=".length(), c.indexOf(';') < 0 ? c.length() : c.indexOf(';')))
                .orElseThrow(() -> new AssertionError("no JSESSIONID from " + adapter() + ": " + direct.headers()));
        assertTrue(sessionId.endsWith(routeSuffix(route())), "route format: " + sessionId);
        for (int i = 0; i < 6; i++) {
            assertTrue(send(viaDispatcher, "probe/session", "JSESSIONID=" + sessionId).startsWith("probe "),
                    "a session naming " + route() + " stays on " + adapter());
            assertEquals("other", send(viaDispatcher, "probe/session", "JSESSIONID=" + sessionIdFor("other")),
                    "a session naming the other node's route goes there");
        }
    }

    /**
     * Time to readmission after a kill: SIGKILL under light load through two dispatchers with the default
     * agent timings (an agent-driven policy and round-robin, each with the stub as the always-up node),
     * then a restart. Last, since it replaces the server process.
     */
    @Test
    @Order(4)
    void aKilledServerIsSelectedAgainWithinTwoSecondsOfAnsweringAfterItsRestart() throws Exception {
        List<KillReadmission.Front> fronts = new ArrayList<>();
        for (String policy : List.of("jvm-aware", "round-robin")) {
            NodeConfig real = new NodeConfig(adapter(), "127.0.0.1:" + port, null, null, route(), null);
            NodeConfig other = new NodeConfig("other", "127.0.0.1:" + stub.getAddress().getPort(), null, null,
                    "other", null);
            ClusterConfig cluster = ClusterConfig.builder().name("readmission").mode(Mode.HTTP)
                    .listen("127.0.0.1:0").policy(policy).agentPath(CONTEXT + "/loadwise-agent/metrics")
                    .nodes(List.of(real, other)).build();
            LoadwiseConfig config = new LoadwiseConfig(null, null, List.of(cluster));
            PolicyRegistry policies = PolicyRegistry.load();
            assertEquals(List.of(), new ConfigValidator(policies).validate(config));
            Dispatcher front = new Dispatcher(config, null, policies, transport, new ModeListenerFactory());
            readmissionFronts.add(front);
            front.start("unused", false);
            fronts.add(new KillReadmission.Front(policy, front, "readmission", adapter(), CONTEXT + "/probe/ping"));
        }
        List<KillReadmission.Result> results = KillReadmission.measure(adapter(), fronts, app.resolve("probe/ping"),
                () -> server.kill(), () -> server = restart(work, port), START_LIMIT);
        StringBuilder rows = new StringBuilder();
        results.forEach(r -> rows.append(r.row()).append('\n'));
        // for the results table: benchmarks/results/2026-11-23-servers/servers.md
        Files.writeString(work.resolve("readmission.txt"), rows, StandardCharsets.UTF_8);
    }

    private String sessionIdFor(String route) {
        return "0000LoadwiseTestSession" + routeSuffix(route);
    }

    private Map<String, Double> agentMetrics() throws Exception {
        AgentMetricsDocument document = MetricsJson.parse(send(app, "loadwise-agent/metrics", null));
        if (document.timestampMillis() == 0) {
            return Map.of(); // the agent has not taken its first sample yet
        }
        assertEquals("jmx:" + adapter(), document.sources().get("appserver"), document.toString());
        return document.metrics();
    }

    private Map<String, Double> dispatcherMetrics() {
        AgentSample sample = dispatcher.cluster("servers").node(adapter()).latestAgentSample();
        return sample == null ? Map.of() : sample.metrics();
    }

    private Map<String, Double> await(String what, MetricsReader reader, Predicate<Map<String, Double>> condition,
            List<CompletableFuture<HttpResponse<String>>> holding) throws Exception {
        long deadline = System.nanoTime() + POLL_LIMIT.toNanos();
        Map<String, Double> metrics;
        do {
            for (CompletableFuture<HttpResponse<String>> request : holding) {
                if (request.isDone()) {
                    throw new AssertionError("a holding request ended early: " + request.get().body());
                }
            }
            metrics = reader.read();
            if (condition.test(metrics)) {
                return metrics;
            }
            Thread.sleep(POLL_INTERVAL_MILLIS);
        } while (System.nanoTime() < deadline);
        throw new AssertionError(what + " did not arrive within " + POLL_LIMIT + ": " + metrics);
    }

    @FunctionalInterface
    private interface MetricsReader {
        Map<String, Double> read() throws Exception;
    }

    private static boolean answers(URI uri) {
        try {
            return HTTP.send(get(uri, null), HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String send(URI base, String path, String cookie) throws Exception {
        HttpResponse<String> response = HTTP.send(get(base.resolve(path), cookie), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), base.resolve(path) + " answered " + response.body());
        return response.body();
    }

    private static HttpRequest get(URI uri, String cookie) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(90)).GET();
        if (cookie != null) {
            b.header("Cookie", cookie);
        }
        return b.build();
    }

    static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }
}
