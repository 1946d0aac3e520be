package io.loadwise.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadwise.console.testing.ApiClient;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.config.ConfigValidator;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.runtime.Dispatcher;
import io.loadwise.dispatcher.runtime.ModeListenerFactory;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.testsupport.EchoServer;
import io.loadwise.testsupport.TestFirstUsablePolicy;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * Starts, per test, two real echo nodes, a config file on disk with one TCP cluster {@code web} over
 * them, and the real {@link Dispatcher} from that file, which finds and starts the admin API
 * ({@link ConsoleControlPlane}) through ServiceLoader on an ephemeral loopback port.
 */
abstract class ApiTestBase {

    static final String TOKEN = "test-token-5f2c9a41d7";
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    EchoServer node1;
    EchoServer node2;
    Path configFile;
    Transport transport;
    Dispatcher control;
    ConsoleControlPlane plane;
    ApiClient api;

    @BeforeEach
    void startApi() throws Exception {
        node1 = new EchoServer();
        node2 = new EchoServer();
        configFile = dir.resolve("loadwise.json");
        Files.writeString(configFile, """
                {"admin": {"listen": "127.0.0.1:0", "token": "%s", "dataDir": "%s"},
                 "clusters": [{"name": "web", "mode": "tcp", "listen": "127.0.0.1:0", "policy": "%s",
                               "nodes": [{"name": "n1", "address": "%s"}, {"name": "n2", "address": "%s", "weight": 2}]}]}
                """.formatted(TOKEN, dataDir().toString().replace("\\", "/"), TestFirstUsablePolicy.ID, node1.address(), node2.address()));
        PolicyRegistry policies = PolicyRegistry.load();
        LoadwiseConfig config = ConfigLoader.load(configFile);
        new ConfigValidator(policies).check(config);
        transport = new Transport(1);
        control = new Dispatcher(config, new ConfigStore(configFile), policies, transport, new ModeListenerFactory());
        control.start(TOKEN, true);
        plane = (ConsoleControlPlane) control.controlPlane();
        api = new ApiClient(plane.port(), TOKEN);
    }

    @AfterEach
    void stopApi() throws IOException {
        if (control != null) {
            control.close();
        }
        if (transport != null) {
            transport.close();
        }
        node1.close();
        node2.close();
    }

    /** The admin data directory (metric stores under {@code rrd/}), inside the test's temporary directory. */
    Path dataDir() {
        return dir.resolve("data");
    }

    /** The configuration file as it is on disk now. */
    JsonNode configOnDisk() throws IOException {
        return JSON.readTree(Files.readString(configFile));
    }

    /** The cluster object with this name in the file on disk, or {@code null}. */
    JsonNode clusterOnDisk(String name) throws IOException {
        for (JsonNode c : configOnDisk().path("clusters")) {
            if (c.path("name").asText().equals(name)) {
                return c;
            }
        }
        return null;
    }

    /** Takes one metrics sample now (the dispatcher also samples every second on its own). */
    void sampleMetrics() {
        control.metricsHistory().sample();
    }

    /** Polls {@code condition} until it holds or ten seconds have passed (the build machine is shared). */
    static void awaitTrue(java.util.function.BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out waiting for " + what);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(5_000_000L);
        }
    }

    static InetSocketAddress parse(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    }

    /** Sends a line through a TCP cluster listener and returns what came back. */
    static String roundTrip(InetSocketAddress listener, String line) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(listener, 5_000);
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
            out.write(bytes);
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] echoed = in.readNBytes(bytes.length);
            return new String(echoed, StandardCharsets.UTF_8).trim();
        }
    }
}
