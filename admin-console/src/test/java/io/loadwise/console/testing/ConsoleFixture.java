package io.loadwise.console.testing;

import com.sun.net.httpserver.HttpServer;
import io.loadwise.console.ConsoleControlPlane;
import io.loadwise.console.auth.TestPasswords;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.config.ConfigValidator;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.runtime.Dispatcher;
import io.loadwise.dispatcher.runtime.ModeListenerFactory;
import io.loadwise.policy.PolicyRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A real dispatcher with the console, started from a config file in a temporary directory: one HTTP
 * cluster {@code shop} (round-robin) over two real HTTP nodes {@code a} and {@code b}, the admin data
 * directory and a log directory with a log file, and the admin password {@link #PASSWORD} already set.
 */
public final class ConsoleFixture implements AutoCloseable {

    public static final String TOKEN = "console-token-7a1e";
    public static final String PASSWORD = "console-pass-42";

    public final Path dir;
    public final Path configFile;
    public final Path logDir;
    public final Dispatcher dispatcher;
    public final int adminPort;
    private final Transport transport;
    private final List<HttpServer> nodes = new ArrayList<>();

    public ConsoleFixture(Path dir) throws Exception {
        this.dir = dir;
        for (String name : new String[] {"a", "b"}) {
            nodes.add(httpNode(name));
        }
        logDir = Files.createDirectories(dir.resolve("logs"));
        Files.writeString(logDir.resolve("loadwise.log"), "first line\nINFO loadwise started\n<script>x</script>\nlast line\n");
        Path dataDir = dir.resolve("data");
        TestPasswords.set(dataDir, PASSWORD);
        configFile = dir.resolve("loadwise.json");
        Files.writeString(configFile, """
                {"admin": {"listen": "127.0.0.1:0", "token": "%s", "dataDir": "%s"},
                 "logging": {"file": "%s"},
                 "clusters": [{"name": "shop", "mode": "http", "listen": "127.0.0.1:0", "policy": "round-robin",
                               "nodes": [{"name": "a", "address": "%s"}, {"name": "b", "address": "%s"}]}]}
                """.formatted(TOKEN, json(dataDir), json(logDir.resolve("loadwise.log")), nodeAddress(0), nodeAddress(1)));
        PolicyRegistry policies = PolicyRegistry.load();
        LoadwiseConfig config = ConfigLoader.load(configFile);
        new ConfigValidator(policies).check(config);
        transport = new Transport(1);
        dispatcher = new Dispatcher(config, new ConfigStore(configFile), policies, transport, new ModeListenerFactory());
        dispatcher.start(TOKEN, true);
        adminPort = ((ConsoleControlPlane) dispatcher.controlPlane()).port();
    }

    private static String json(Path path) {
        return path.toAbsolutePath().toString().replace("\\", "\\\\");
    }

    public String base() {
        return "http://127.0.0.1:" + adminPort;
    }

    public String nodeAddress(int i) {
        return "127.0.0.1:" + nodes.get(i).getAddress().getPort();
    }

    /** Where a cluster's listener is bound. */
    public InetSocketAddress listener(String cluster) {
        return dispatcher.boundAddress(cluster);
    }

    private static HttpServer httpNode(String name) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = ("node " + name).getBytes(StandardCharsets.UTF_8);
            // /fail... answers 503: the live request page's tests need a node's error among real requests
            exchange.sendResponseHeaders(exchange.getRequestURI().getPath().startsWith("/fail") ? 503 : 200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        return server;
    }

    @Override
    public void close() {
        dispatcher.close();
        transport.close();
        nodes.forEach(s -> s.stop(0));
    }
}
