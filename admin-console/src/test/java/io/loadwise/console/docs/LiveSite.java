package io.loadwise.console.docs;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.loadwise.console.ConsoleControlPlane;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.config.ConfigValidator;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.runtime.Dispatcher;
import io.loadwise.dispatcher.runtime.ModeListenerFactory;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.testsupport.TestPki;
import io.loadwise.wire.MetricsJson;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the docs' {@code curl} lines assume, live: a dispatcher from a file with its admin API, an HTTP cluster
 * {@code web} ({@code jvm-aware}, cookie affinity) over three real HTTP nodes {@code n1..n3} that serve an agent
 * metrics document (the site is ready when every agent has been polled once), open to
 * registrations from 10.0.0.0/8 with a registration token, and an HTTP cluster {@code shop} over one node
 * {@code a}, and a TLS cluster {@code secure} over {@code a} with a certificate for {@code localhost} from a test
 * CA, whose certificate is {@code ca.pem} in the directory the lines run in. {@code $API}, {@code $AUTH}, {@code $TOKEN}, {@code $LOADWISE_ADMIN_TOKEN} and
 * {@code $REGISTRATION_TOKEN} are set as docs/rest-api.md defines them; the docs' fixed addresses
 * ({@code 127.0.0.1:8111}, {@code 0.0.0.0:8080}, {@code 127.0.0.1:9090}) become free loopback ports, and
 * {@code localhost:8443} the TLS cluster's.
 */
final class LiveSite implements AutoCloseable {

    static final String TOKEN = "docs-token-7d1e4b9a0c52";
    static final String REGISTRATION_TOKEN = "docs-registration-3a9f5e21";
    private static final Pattern STATUS = Pattern.compile("HTTPSTATUS (\\d{3})");

    record Answer(int status, String stdout, String stderr) {
        /** The body: stdout without the head {@code -i} prints. */
        String body() {
            if (stdout.startsWith("HTTP/")) {
                int end = stdout.indexOf("\r\n\r\n");
                return end < 0 ? "" : stdout.substring(end + 4);
            }
            return stdout;
        }
    }

    private final Path dir;
    private final List<HttpServer> nodes = new ArrayList<>();
    private final Transport transport;
    private final Dispatcher dispatcher;
    private final String adminUrl;
    private final Map<String, String> addresses;

    LiveSite(Path dir) throws Exception {
        this.dir = Files.createDirectories(dir);
        List<String> web = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            web.add(node("n" + (i + 1)));
        }
        String shop = node("a");
        TestPki pki = new TestPki(Files.createDirectories(dir.resolve("pki")));
        TestPki.Issued server = pki.issue("server", "shop.example", "shop.example", "localhost");
        Files.copy(pki.caCert, dir.resolve("ca.pem"));
        Path file = dir.resolve("loadwise.json");
        Files.writeString(file, """
                {"admin": {"listen": "127.0.0.1:0", "token": "%s", "registrationToken": "%s", "dataDir": "%s"},
                 "clusters": [
                   {"name": "web", "mode": "http", "listen": "127.0.0.1:0", "policy": "jvm-aware", "affinity": "cookie",
                    "registration": {"enabled": true, "allowedNetworks": ["10.0.0.0/8"]},
                    "nodes": [{"name": "n1", "address": "%s", "route": "n1", "contexts": ["/"]},
                              {"name": "n2", "address": "%s", "route": "n2", "contexts": ["/"]},
                              {"name": "n3", "address": "%s", "route": "n3", "contexts": ["/"]}]},
                   {"name": "shop", "mode": "http", "listen": "127.0.0.1:0", "policy": "round-robin",
                    "nodes": [{"name": "a", "address": "%s"}]},
                   {"name": "secure", "mode": "http", "listen": "127.0.0.1:0", "policy": "round-robin",
                    "tls": {"certificate": "%s", "key": "%s"},
                    "nodes": [{"name": "a", "address": "%s"}]}]}
                """.formatted(TOKEN, REGISTRATION_TOKEN, dir.resolve("data"), web.get(0), web.get(1), web.get(2), shop,
                server.certificate(), server.key(), shop));
        PolicyRegistry policies = PolicyRegistry.load();
        LoadwiseConfig config = ConfigLoader.load(file);
        new ConfigValidator(policies).check(config);
        transport = new Transport(1);
        dispatcher = new Dispatcher(config, new ConfigStore(file), policies, transport, new ModeListenerFactory());
        dispatcher.start(TOKEN, true);
        adminUrl = "http://127.0.0.1:" + ((ConsoleControlPlane) dispatcher.controlPlane()).port();
        addresses = Map.of("http://127.0.0.1:8111", adminUrl,
                "0.0.0.0:8080", "127.0.0.1:" + freePort(),
                "127.0.0.1:9090", "127.0.0.1:" + freePort(),
                "localhost:8443", "localhost:" + dispatcher.boundAddress("secure").getPort());
        awaitAgents();
    }

    /** Waits, with a deadline, until the first poll of every agent of {@code web} has arrived. */
    private void awaitAgents() throws IOException, InterruptedException {
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        java.net.http.HttpRequest get = java.net.http.HttpRequest.newBuilder(java.net.URI.create(adminUrl + "/api/clusters/web"))
                .header("Authorization", "Bearer " + TOKEN).build();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            String body = http.send(get, java.net.http.HttpResponse.BodyHandlers.ofString()).body();
            boolean polled = true;
            for (com.fasterxml.jackson.databind.JsonNode node : DocsTest.JSON.readTree(body).path("nodes")) {
                polled &= node.path("agent").path("state").asText().equals("ok");
            }
            if (polled) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("the agents of web were not polled within 20 s: " + body);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(20_000_000L);
        }
    }

    /** A node that answers every path, and its agent's metrics document under the default agent path. */
    private String node(String name) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/loadwise-agent/metrics", exchange -> reply(exchange, MetricsJson.encode(
                System.currentTimeMillis(), Map.of("JVM_HEAP_USED%", 61.0, "OS_CPU_USED%", 37.5, "AMX_SESSIONS_ACT", 0.0,
                        "JVM_THREADS", 31.0),
                Map.of("jvm", "test"))));
        server.createContext("/", exchange -> reply(exchange, "hello from " + name));
        server.start();
        nodes.add(server);
        return "127.0.0.1:" + server.getAddress().getPort();
    }

    private static void reply(HttpExchange exchange, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Runs a doc's command line with bash and the real curl; the status comes from curl's {@code -w} on stderr. */
    Answer curl(String commandLine) throws IOException, InterruptedException {
        String line = commandLine;
        for (Map.Entry<String, String> a : addresses.entrySet()) {
            line = line.replace(a.getKey(), a.getValue());
        }
        String script = "curl() { command curl -q --max-time 20 -w '%{stderr}\\nHTTPSTATUS %{http_code}\\n' \"$@\"; }\n" + line + "\n";
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", script).directory(dir.toFile());
        Map<String, String> env = builder.environment();
        for (String proxy : List.of("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")) {
            env.remove(proxy); // the lines talk to loopback, never through a proxy (and -q: no ~/.curlrc)
        }
        env.put("API", adminUrl + "/api");
        env.put("LOADWISE_ADMIN_TOKEN", TOKEN);
        env.put("TOKEN", TOKEN);
        env.put("AUTH", "Authorization: Bearer " + TOKEN);
        env.put("REGISTRATION_TOKEN", REGISTRATION_TOKEN);
        Path out = dir.resolve("curl.out");
        Path err = dir.resolve("curl.err");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("curl did not end within 60 s: " + line);
        }
        String stderr = Files.readString(err);
        Matcher m = STATUS.matcher(stderr);
        int status = -1;
        while (m.find()) {
            status = Integer.parseInt(m.group(1));
        }
        return new Answer(status, Files.readString(out), stderr);
    }

    @Override
    public void close() throws IOException {
        dispatcher.close();
        transport.close();
        for (HttpServer node : nodes) {
            node.stop(0);
        }
    }
}
