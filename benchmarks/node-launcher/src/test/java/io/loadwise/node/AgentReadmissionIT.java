package io.loadwise.node;

import org.awaitility.Awaitility;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.loadwise.dispatcher.cluster.AgentState;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.config.AgentSettings;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.runtime.Dispatcher;
import io.loadwise.dispatcher.runtime.ModeListenerFactory;
import io.loadwise.policy.AgentSample;
import io.loadwise.policy.PolicyRegistry;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 18, items 1 and 2, end to end: the real dispatcher in front of two embedded Tomcats that run the
 * real agent (listener, filter and metrics servlet, as its web-fragment registers them), over real
 * sockets, with the dispatcher's default agent timings (1 s polls, 3 s expiry, 60 s re-probe) and
 * {@code unhealthyRetryMs} (5 s).
 */
class AgentReadmissionIT {

    private static final String SECRET = "Zq7-agents-only";
    private static final Duration READMISSION = Duration.ofSeconds(2);

    @TempDir
    Path work;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private AgentNode a;
    private AgentNode b;
    private Transport transport;
    private Dispatcher dispatcher;

    @AfterEach
    void stop() throws Exception {
        if (dispatcher != null) {
            dispatcher.close();
        }
        if (transport != null) {
            transport.close();
        }
        for (AgentNode node : new AgentNode[] {a, b}) {
            if (node != null) {
                node.close();
            }
        }
    }

    private void startDispatcher(String policy, String agentSecret) throws Exception {
        transport = new Transport(1);
        dispatcher = startDispatcher(work, transport, policy, a.port(), b.port(), agentSecret);
    }

    /**
     * A real dispatcher from a configuration file in {@code work}: one HTTP cluster {@code web} of nodes
     * {@code a} and {@code b} on loopback, with the default timings.
     *
     * @param agentSecret the cluster's agent secret, or {@code null}
     */
    static Dispatcher startDispatcher(Path work, Transport transport, String policy, int portA, int portB,
            String agentSecret) throws Exception {
        Path file = work.resolve("loadwise.json");
        Files.writeString(file, """
                {"admin": {"listen": "127.0.0.1:0", "token": "test-token-0123456789"},
                 "clusters": [{"name": "web", "mode": "http", "listen": "127.0.0.1:0", "policy": "%s",
                               "nodes": [{"name": "a", "address": "127.0.0.1:%d"},
                                         {"name": "b", "address": "127.0.0.1:%d"}]%s}]}
                """.formatted(policy, portA, portB,
                agentSecret == null ? "" : ", \"agent\": {\"secret\": \"" + agentSecret + "\"}"));
        Dispatcher dispatcher = new Dispatcher(ConfigLoader.load(file), new ConfigStore(file), PolicyRegistry.load(),
                transport, new ModeListenerFactory());
        dispatcher.start("test-token-0123456789", false);
        return dispatcher;
    }

    private NodeState node(String name) {
        return dispatcher.cluster("web").node(name);
    }

    /** One request through the dispatcher; it must succeed. Returns the name of the node that served it. */
    private String request() throws IOException, InterruptedException {
        URI uri = URI.create("http://127.0.0.1:" + dispatcher.boundAddress("web").getPort() + "/work");
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return response.body();
    }

    @ParameterizedTest
    @ValueSource(strings = {"jvm-aware", "round-robin"})
    void aKilledAndRestartedNodeIsSelectedAgainWithinTwoSeconds(String policy) throws Exception {
        a = new AgentNode(work.resolve("a"), "a", 0, null);
        b = new AgentNode(work.resolve("b"), "b", 0, null);
        startDispatcher(policy, null);
        if (policy.equals("jvm-aware")) {
            await("both agents polled", Duration.ofSeconds(20),
                    () -> node("a").agentState() == AgentState.OK && node("b").agentState() == AgentState.OK);
        }
        assertEquals(Set.of("a", "b"), served(20), "both nodes serve");

        int port = b.port();
        b.close(); // killed
        b = null;
        // Clients keep coming: the proxy finds b dead and holds it out for unhealthyRetryMs (5 s).
        await("b held out after a failed connect", Duration.ofSeconds(20), () -> {
            requestQuietly();
            return node("b").connectDown();
        });
        if (policy.equals("jvm-aware")) {
            // past agentExpiryMs (3 s) without a sample: b's agent is silent and re-probed with a back-off
            await("b's agent unknown", Duration.ofSeconds(20), () -> node("b").agentState() == AgentState.UNKNOWN
                    && dispatcher.agentStats("web", "b").pollsFailed() >= 4);
        }

        b = new AgentNode(work.resolve("b2"), "b", port, null);
        long answering = System.nanoTime();
        while (!request().equals("b")) {
            if (System.nanoTime() - answering > READMISSION.toNanos()) {
                fail(policy + ": b not selected within " + READMISSION.toMillis() + " ms of answering again");
            }
        }
        long millis = (System.nanoTime() - answering) / 1_000_000;
        assertTrue(millis < READMISSION.toMillis(), policy + ": b selected again after " + millis + " ms");
    }

    @Test
    void anAgentWithASecretAnswersTheRightOneAndRefusingTheWrongOneStaysSelectable() throws Exception {
        // No piggybacked headers, so only polls can vouch for the agents.
        a = new AgentNode(work.resolve("a"), "a", 0, SECRET);
        b = new AgentNode(work.resolve("b"), "b", 0, SECRET);
        startDispatcher("jvm-aware", SECRET);
        await("both agents polled with the secret", Duration.ofSeconds(20),
                () -> node("a").agentState() == AgentState.OK && node("b").agentState() == AgentState.OK);
        assertEquals(AgentSample.Source.POLL, node("a").latestAgentSample().source());

        var config = dispatcher.config().clustersOrEmpty().get(0);
        dispatcher.updateCluster("web", config.toBuilder().agent(new AgentSettings("not-the-agents-secret")).build());
        await("both agents refuse the wrong secret", Duration.ofSeconds(20),
                () -> node("a").agentState() == AgentState.UNAUTHORIZED
                        && node("b").agentState() == AgentState.UNAUTHORIZED);
        assertTrue(node("a").agentProblem().contains("wrong or missing agent secret"), node("a").agentProblem());
        assertEquals(Set.of("a", "b"), served(20), "unauthorized agents take no node out of selection");
    }

    /** The nodes that served {@code count} requests. */
    private Set<String> served(int count) throws Exception {
        Set<String> names = new HashSet<>();
        for (int i = 0; i < count; i++) {
            names.add(request());
        }
        return names;
    }

    private void requestQuietly() {
        try {
            request();
        } catch (IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        Awaitility.await(what).atMost(timeout).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                .until(condition::getAsBoolean);
    }

    /** Answers every application request with the node's name. */
    public static final class NameServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;
        private final String name;

        NameServlet(String name) {
            this.name = name;
        }

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            resp.setContentType("text/plain");
            resp.getWriter().write(name);
        }
    }

    /**
     * An embedded Tomcat on loopback with the real agent registered as its web-fragment does, and one
     * application servlet. With a secret, the agent's endpoints want it and no response piggybacks a
     * report, so that the test sees what polls alone make of the agent.
     */
    static final class AgentNode implements AutoCloseable {
        private final Tomcat tomcat = new Tomcat();

        AgentNode(Path base, String name, int port, String secret) throws Exception {
            tomcat.setBaseDir(base.toString());
            tomcat.setHostname("127.0.0.1");
            tomcat.setPort(port);
            tomcat.getConnector().setProperty("address", "127.0.0.1");
            Context context = tomcat.addContext("", Files.createDirectories(base.resolve("docs")).toString());
            context.addParameter("loadwise.agent.sample.full.ms", "200");
            if (secret != null) {
                context.addParameter("loadwise.agent.secret", secret);
                context.addParameter("loadwise.agent.header.interval.ms", "-1");
            }
            AgentWebApp.install(context, name);
            tomcat.start();
        }

        int port() {
            return tomcat.getConnector().getLocalPort();
        }

        /** Undeploys the application; the server keeps running and answers 404 in its place. */
        void undeploy() {
            tomcat.getHost().removeChild(tomcat.getHost().findChild(""));
        }

        @Override
        public void close() throws Exception {
            tomcat.stop();
            tomcat.destroy();
        }
    }
}
