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
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Undeploying one web application under load: two embedded Tomcats serve {@code /app} with the real agent,
 * which registers them; one application is removed from its host (the server keeps running). The agent
 * deregisters at the application's {@code before_stop}, before Tomcat unmaps it, so the dispatcher has
 * drained the node when Tomcat stops answering {@code /app}.
 */
class UndeployIT {

    private static final String TOKEN = "test-token-0123456789";
    private static final String REG_TOKEN = "reg-token-a1b2c3d4e5f6";

    @TempDir
    Path work;
    private Transport transport;
    private Dispatcher dispatcher;
    private final List<Tomcat> tomcats = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @AfterEach
    void stop() throws Exception {
        for (Tomcat t : tomcats) {
            t.stop();
            t.destroy();
        }
        if (dispatcher != null) {
            dispatcher.close();
        }
        if (transport != null) {
            transport.close();
        }
    }

    @Test
    void undeployingAnApplicationUnderLoadFailsNoRequest() throws Exception {
        Path file = work.resolve("loadwise.json");
        Files.writeString(file, """
                {"admin": {"listen": "127.0.0.1:0", "token": "%s", "registrationToken": "%s", "dataDir": "%s"},
                 "clusters": [{"name": "web", "mode": "http", "listen": "127.0.0.1:0", "policy": "round-robin",
                               "registration": {"enabled": true, "allowedNetworks": ["127.0.0.1/32"]}}]}
                """.formatted(TOKEN, REG_TOKEN, work.resolve("data").toString().replace("\\", "/")));
        transport = new Transport(1);
        dispatcher = new Dispatcher(ConfigLoader.load(file), new ConfigStore(file), PolicyRegistry.load(), transport,
                new ModeListenerFactory());
        dispatcher.start(TOKEN, true);

        Context a = node("a");
        node("b");
        await("a and b registered", Duration.ofSeconds(30), () -> registered("a") != null && registered("b") != null);
        assertEquals(List.of("/app"), registered("a").contexts());

        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong ok = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        List<String> problems = Collections.synchronizedList(new ArrayList<>());
        List<Thread> clients = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Thread t = new Thread(() -> {
                while (running.get()) {
                    try {
                        HttpResponse<String> r = get("/app/work");
                        if (r.statusCode() == 200) {
                            ok.incrementAndGet();
                        } else {
                            failed.incrementAndGet();
                            problems.add(r.statusCode() + " " + r.body());
                        }
                    } catch (IOException e) {
                        failed.incrementAndGet();
                        problems.add(e.toString());
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            t.start();
            clients.add(t);
        }
        long before;
        long servedByA;
        try {
            await("load through both nodes", Duration.ofSeconds(20), () -> ok.get() > 200
                    && registered("a").counters().completed() > 50 && registered("b").counters().completed() > 50);
            before = ok.get();
            a.getParent().removeChild(a); // undeploy /app from a; its Tomcat keeps running
            await("a removed from the cluster", Duration.ofSeconds(30), () -> registered("a") == null);
            long after = ok.get();
            await("more load on b alone", Duration.ofSeconds(20), () -> ok.get() > after + 200);
            servedByA = before;
        } finally {
            running.set(false);
            for (Thread t : clients) {
                t.join(15_000);
            }
        }
        System.out.println("UndeployIT figures: " + ok.get() + " served (" + servedByA + " before the undeploy), "
                + failed.get() + " failed" + (problems.isEmpty() ? "" : ", first " + problems.subList(0,
                Math.min(5, problems.size()))));
        assertEquals(0, failed.get(), "failed requests: " + problems);
        assertTrue(ok.get() > servedByA + 200);
    }

    private NodeStatus registered(String name) {
        ClusterStatus cluster = dispatcher.clusterStatus("web");
        return cluster == null ? null : cluster.node(name);
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        URI uri = URI.create("http://127.0.0.1:" + dispatcher.boundAddress("web").getPort() + path);
        return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** An embedded Tomcat with {@code /app}: the real agent (registering the node) and a servlet naming it. */
    private Context node(String name) throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        Tomcat tomcat = new Tomcat();
        Path base = work.resolve(name);
        tomcat.setBaseDir(base.toString());
        tomcat.setHostname("127.0.0.1");
        tomcat.setPort(port);
        tomcat.getConnector().setProperty("address", "127.0.0.1");
        tomcat.getEngine().setName("Tomcat-" + name); // two servers in one JVM: distinct MBean domains
        Context context = tomcat.addContext("/app", Files.createDirectories(base.resolve("docs")).toString());
        context.addParameter("loadwise.agent.register", "http://127.0.0.1:" + dispatcher.controlPlane().port());
        context.addParameter("loadwise.agent.cluster", "web");
        context.addParameter("loadwise.agent.register.token", REG_TOKEN);
        // Two servers share this JVM's MBean server, so the address and the name are given, not derived.
        context.addParameter("loadwise.agent.address", "127.0.0.1:" + port);
        context.addParameter("loadwise.agent.name", name);
        context.addParameter("loadwise.agent.heartbeat.ms", "1000");
        AgentWebApp.install(context, name);
        tomcat.start();
        tomcats.add(tomcat);
        return context;
    }

    private static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        Awaitility.await(what).atMost(timeout).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                .until(condition::getAsBoolean);
    }
}
