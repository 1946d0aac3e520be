package io.loadwise.dispatcher.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.runtime.Dispatcher;
import io.loadwise.dispatcher.runtime.ModeListenerFactory;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.wire.MetricsJson;
import io.loadwise.wire.OrcaLoadReport;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
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
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent-driven policies through the real proxy: nodes that serve an agent document and piggyback
 * load reports on their responses, the real dispatcher runtime (listener, node monitor, picker rebuilds)
 * and HTTP clients that never see the reports.
 */
class AgentDrivenProxyTest {

    @TempDir
    Path dir;

    private final List<ReportingNode> nodes = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private Transport transport;
    private Dispatcher dispatcher;

    @AfterEach
    void stop() {
        if (dispatcher != null) {
            dispatcher.close();
        }
        if (transport != null) {
            transport.close();
        }
        nodes.forEach(ReportingNode::close);
    }

    /** Seed 001 Table 1: node 1 at 20 % memory, CPU and I/O wait, node 2 at 40 %, weights 54 and 21. */
    @Test
    void f5DynamicRatioSplitsTable1Nodes54To21() throws Exception {
        ReportingNode one = node("one", Map.of("OS_MEM_USED%", 20.0, "OS_CPU_USED%", 20.0, "OS_CPU_IOWAIT%", 20.0));
        ReportingNode two = node("two", Map.of("OS_MEM_USED%", 40.0, "OS_CPU_USED%", 40.0, "OS_CPU_IOWAIT%", 40.0));
        start("f5-dynamic-ratio");
        awaitSamples();

        int toOne = 0;
        for (int i = 0; i < 375; i++) {
            toOne += request().equals("one") ? 1 : 0;
        }
        // 375 requests are five full cycles of 54 + 21; the split is exact up to where the first cycle began.
        assertTrue(Math.abs(toOne - 270) <= 2, "node one got " + toOne + " of 375, expected 270");
        assertEquals(375, one.served() + two.served() - one.agentPolls() - two.agentPolls());
    }

    @Test
    void jvmAwareStopsSendingToANodeAbove85PercentHeapAndResumesWhenItDrops() throws Exception {
        ReportingNode one = node("one", Map.of("JVM_HEAP_USED%", 30.0, "OS_CPU_USED%", 10.0));
        node("two", Map.of("JVM_HEAP_USED%", 50.0, "OS_CPU_USED%", 10.0));
        start("jvm-aware");
        awaitSamples();
        awaitSteady("one", "one is the least loaded (20 against 30)");

        one.report(Map.of("JVM_HEAP_USED%", 86.0, "OS_CPU_USED%", 10.0));
        awaitSteady("two", "one is refused above 85 % heap (its next response carries the report)");

        one.report(Map.of("JVM_HEAP_USED%", 20.0, "OS_CPU_USED%", 10.0));
        // one gets no traffic now, so its new state arrives with the next agent poll
        awaitSteady("one", "one is back once its heap dropped");
    }

    @Test
    void garbageLoadReportsChangeNothingAndNeverReachTheClient() throws Exception {
        ReportingNode one = node("one", Map.of("JVM_HEAP_USED%", 30.0));
        node("two", Map.of("JVM_HEAP_USED%", 50.0));
        start("jvm-aware");
        awaitSamples();
        awaitSteady("one", "one is the least loaded");

        one.reportRaw("TEXT named_metrics.jvm_heap_used=banana");
        for (int i = 0; i < 20; i++) {
            assertEquals("one", request(), "a garbage report moved traffic");
        }
        NodeState state = dispatcher.cluster("web").node("one");
        assertEquals(30.0, state.latestAgentSample().metrics().get("JVM_HEAP_USED%"));
        assertTrue(dispatcher.agentStats("web", "one").malformedReports() >= 20);
    }

    private ReportingNode node(String name, Map<String, Double> metrics) throws IOException {
        ReportingNode node = new ReportingNode(name, metrics);
        nodes.add(node);
        return node;
    }

    private void start(String policy) throws Exception {
        StringBuilder nodeJson = new StringBuilder();
        for (ReportingNode node : nodes) {
            nodeJson.append(nodeJson.isEmpty() ? "" : ",").append("{\"name\": \"").append(node.name)
                    .append("\", \"address\": \"127.0.0.1:").append(node.port()).append("\"}");
        }
        Path file = dir.resolve("loadwise.json");
        Files.writeString(file, """
                {"admin": {"listen": "127.0.0.1:0", "token": "test-token-0123456789"},
                 "clusters": [{"name": "web", "mode": "http", "listen": "127.0.0.1:0", "policy": "%s",
                               "agentPollIntervalMs": 200, "nodes": [%s]}]}
                """.formatted(policy, nodeJson));
        transport = new Transport(1);
        dispatcher = new Dispatcher(ConfigLoader.load(file), new ConfigStore(file), PolicyRegistry.load(), transport,
                new ModeListenerFactory());
        dispatcher.start("test-token-0123456789", false);
    }

    private void awaitSamples() {
        Await.until("every node's agent polled", () -> dispatcher.cluster("web").nodes().stream()
                .allMatch(n -> n.agentSample() != null));
    }

    /** Waits until ten requests in a row went to {@code node}. */
    private void awaitSteady(String node, String what) {
        Await.until(what, () -> {
            for (int i = 0; i < 10; i++) {
                if (!request().equals(node)) {
                    return false;
                }
            }
            return true;
        });
    }

    /** One request through the dispatcher; returns the name of the node that answered. */
    private String request() {
        try {
            int port = dispatcher.boundAddress("web").getPort();
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/work")).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response.body());
            assertTrue(response.headers().firstValue(OrcaLoadReport.HEADER_NAME).isEmpty(),
                    "a load report reached the client");
            return response.body();
        } catch (IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** A real HTTP node: answers its name with a load report, and serves its agent document. */
    private static final class ReportingNode implements AutoCloseable {
        final String name;
        private final HttpServer server;
        private final AtomicReference<Map<String, Double>> metrics = new AtomicReference<>();
        private final AtomicReference<String> header = new AtomicReference<>();
        private int served;
        private int agentPolls;

        ReportingNode(String name, Map<String, Double> initial) throws IOException {
            this.name = name;
            report(initial);
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/loadwise-agent/metrics", exchange -> {
                synchronized (this) {
                    served++;
                    agentPolls++;
                }
                send(exchange, MetricsJson.encode(System.currentTimeMillis(), metrics.get(), Map.of()), null);
            });
            server.createContext("/", exchange -> {
                synchronized (this) {
                    served++;
                }
                send(exchange, name, header.get());
            });
            server.start();
        }

        private static void send(com.sun.net.httpserver.HttpExchange exchange, String body, String report)
                throws IOException {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            if (report != null) {
                exchange.getResponseHeaders().set(OrcaLoadReport.HEADER_NAME, report);
            }
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }

        void report(Map<String, Double> values) {
            metrics.set(values);
            header.set(OrcaLoadReport.encodeText(values));
        }

        void reportRaw(String raw) {
            header.set(raw);
        }

        int port() {
            return server.getAddress().getPort();
        }

        synchronized int served() {
            return served;
        }

        synchronized int agentPolls() {
            return agentPolls;
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
