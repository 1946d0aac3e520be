package io.loadwise.dispatcher.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.wire.OrcaLoadReport;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.runtime.Dispatcher;
import io.loadwise.dispatcher.runtime.ModeListenerFactory;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.policy.PolicyRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The real dispatcher runtime (listener, node monitor, picker rebuilds) serving one HTTP cluster "web"
 * over {@link AppNode}s, with agent timings short enough for tests: polls every {@value #POLL_MS} ms,
 * samples expire after {@value #EXPIRY_MS} ms, silent agents are re-probed every {@value #REPROBE_MS} ms.
 */
final class ShortTimingDispatcher implements AutoCloseable {

    static final int POLL_MS = 50;
    static final int EXPIRY_MS = 200;
    static final int REPROBE_MS = 100;

    private final Transport transport;
    final Dispatcher dispatcher;

    ShortTimingDispatcher(Path dir, String policy, List<AppNode> nodes) throws Exception {
        StringBuilder nodeJson = new StringBuilder();
        for (AppNode node : nodes) {
            nodeJson.append(nodeJson.isEmpty() ? "" : ",").append("{\"name\": \"").append(node.name)
                    .append("\", \"address\": \"").append(node.address()).append("\"}");
        }
        Path file = dir.resolve("loadwise.json");
        Files.writeString(file, """
                {"admin": {"listen": "127.0.0.1:0", "token": "test-token-0123456789"},
                 "clusters": [{"name": "web", "mode": "http", "listen": "127.0.0.1:0", "policy": "%s",
                               "agentPollIntervalMs": %d, "agentExpiryMs": %d, "agentReprobeMs": %d,
                               "nodes": [%s]}]}
                """.formatted(policy, POLL_MS, EXPIRY_MS, REPROBE_MS, nodeJson));
        transport = new Transport(1);
        dispatcher = new Dispatcher(ConfigLoader.load(file), new ConfigStore(file), PolicyRegistry.load(), transport,
                new ModeListenerFactory());
        dispatcher.start("t", false);
    }

    VirtualCluster cluster() {
        return dispatcher.cluster("web");
    }

    NodeState node(String name) {
        return cluster().node(name);
    }

    AgentStats stats(String node) {
        return dispatcher.agentStats("web", node);
    }

    void switchPolicy(String id) throws ConfigValidationException {
        dispatcher.switchPolicy("web", id, Map.of());
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + dispatcher.boundAddress("web").getPort() + "/work");
    }

    /** Waits until the monitor has reported each node's agent silent: {@value #EXPIRY_MS} ms without a sample. */
    void awaitReportedSilent(String... nodes) {
        for (String node : nodes) {
            Await.until("the agent of " + node + " reported silent", () -> stats(node).silent());
        }
    }

    /** One request through the dispatcher, which must succeed; returns the name of the node that answered. */
    String request(HttpClient http) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri()).timeout(Duration.ofSeconds(10))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), "status; body: " + response.body());
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

    @Override
    public void close() {
        dispatcher.close();
        transport.close();
    }
}
