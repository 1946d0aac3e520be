package io.loadwise.bench.chaos;

import io.loadwise.testsupport.faults.FaultNodeProcess;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shipped dispatcher ({@code java -jar loadwise.jar run --config FILE}) as a child process, with one HTTP
 * cluster, {@value #CLUSTER}, on a fixed loopback port, its admin API on a free one and its token in
 * {@code LOADWISE_ADMIN_TOKEN}; plus the admin calls the chaos cases make: node state, policy switches,
 * rewriting the file and reloading it (API or SIGHUP).
 *
 * <p>The cluster's resilience settings are the ones the README of the results lists: round robin,
 * {@code connectTimeoutMs} 500, {@code responseTimeoutMs} 1500, {@code unhealthyRetryMs} 1000, health
 * checks of {@code /health} every second (timeout 1 s, rise 2, fall 2), outlier detection (5 × 5xx or
 * 3 gateway failures in a row, 5 s base ejection) and a 5 s slow start. Shorter check timeouts took healthy
 * nodes down on a busy shared machine, which is not what the bench is about. The access log
 * ({@code access.log} next to the configuration) says which node each request went to.
 */
final class ChaosDispatcher implements AutoCloseable {

    static final String CLUSTER = "chaos";
    static final int SLOW_START_MS = 5_000;
    static final int BASE_EJECTION_MS = 5_000;
    static final int RESPONSE_TIMEOUT_MS = 1_500;
    static final String ETCD_PREFIX = "/loadwise/soak";
    private static final Pattern ADMIN_LINE = Pattern.compile("admin console on (http://\\S+?)/? \\(REST API under /api\\)");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final Process process;
    private final Path config;
    private final Path log;
    private final ObjectNode document;
    private final int port;
    private final String token;
    private URI api;
    private List<String> retryOn;

    private ChaosDispatcher(Process process, Path config, Path log, ObjectNode document, int port, String token) {
        this.process = process;
        this.config = config;
        this.log = log;
        this.document = document;
        this.port = port;
        this.token = token;
    }

    /** Writes the configuration under {@code dir}, starts the dispatcher and waits until its admin API answers. */
    static ChaosDispatcher start(Path jar, Path dir, List<FaultNodeProcess> nodes, Duration timeout)
            throws IOException, InterruptedException {
        return start(jar, dir, nodes, timeout, null);
    }

    /**
     * As {@link #start(Path, Path, List, Duration)}; with {@code etcd}, the file says {@code config.store etcd}
     * with every member's endpoint and prefix {@value #ETCD_PREFIX}, and the cluster is written to etcd instead.
     */
    static ChaosDispatcher start(Path jar, Path dir, List<FaultNodeProcess> nodes, Duration timeout, EtcdMembers etcd)
            throws IOException, InterruptedException {
        return start(jar, dir, nodes, timeout, etcd, null);
    }

    /**
     * As {@link #start(Path, Path, List, Duration, EtcdMembers)}; a non-null {@code retryOn} is the cluster's
     * {@code retryOn} list (the soak's load is idempotent GETs only, so it also retries response timeouts).
     */
    static ChaosDispatcher start(Path jar, Path dir, List<FaultNodeProcess> nodes, Duration timeout, EtcdMembers etcd,
            List<String> retryOn) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        String token = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
        int port = freePort();
        ObjectNode document = configuration(port, dir.resolve("data"), dir.resolve("access.log"), nodes);
        if (retryOn != null) {
            retryOn.forEach(((ObjectNode) document.withArray("clusters").get(0)).putArray("retryOn")::add);
        }
        if (etcd != null) {
            etcd.put(ETCD_PREFIX + "/clusters/" + CLUSTER, document.withArray("clusters").get(0).toString());
            document.remove("clusters");
            ObjectNode store = document.putObject("config").put("store", "etcd").put("prefix", ETCD_PREFIX);
            etcd.endpoints().forEach(store.putArray("endpoints")::add);
        }
        Path config = dir.resolve("loadwise.json");
        write(config, document);
        Path log = dir.resolve("dispatcher.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-Xms64m", "-Xmx256m", "-XX:+UseSerialGC", "-jar",
                jar.toString(), "run", "--config", config.toString()).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("LOADWISE_ADMIN_TOKEN", token);
        Process process = builder.start();
        process.getOutputStream().close();
        ChaosDispatcher dispatcher = new ChaosDispatcher(process, config, log, document, port, token);
        dispatcher.retryOn = retryOn;
        try {
            dispatcher.api = awaitAdminUri(process, log, timeout);
            return dispatcher;
        } catch (IOException | InterruptedException | RuntimeException e) {
            dispatcher.close();
            throw e;
        }
    }

    static ObjectNode configuration(int port, Path dataDir, Path accessLog, List<FaultNodeProcess> nodes) {
        ObjectNode root = JSON.createObjectNode();
        root.putObject("admin").put("listen", "127.0.0.1:0").put("dataDir", dataDir.toString());
        ObjectNode logging = root.putObject("logging").put("level", "info").put("accessLog", accessLog.toString());
        logging.putObject("levels").put("io.netty", "warn");
        ObjectNode cluster = root.putArray("clusters").addObject();
        cluster.put("name", CLUSTER).put("mode", "http").put("listen", "127.0.0.1:" + port).put("policy", "round-robin")
                .put("connectTimeoutMs", 500).put("responseTimeoutMs", RESPONSE_TIMEOUT_MS).put("unhealthyRetryMs", 1_000)
                .put("slowStartMs", SLOW_START_MS);
        cluster.putObject("healthCheck").put("path", "/health").put("intervalMs", 1_000).put("timeoutMs", 1_000)
                .put("rise", 2).put("fall", 2);
        cluster.putObject("outlierDetection").put("consecutive5xx", 5).put("consecutiveGatewayFailures", 3)
                .put("baseEjectionMs", BASE_EJECTION_MS).put("maxEjectionPercent", 50);
        setNodes(root, nodes);
        return root;
    }

    private static void setNodes(ObjectNode root, List<FaultNodeProcess> nodes) {
        ArrayNode list = ((ObjectNode) root.withArray("clusters").get(0)).putArray("nodes");
        for (FaultNodeProcess node : nodes) {
            list.addObject().put("name", node.name()).put("address", node.address());
        }
    }

    private static void write(Path file, ObjectNode document) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(document), StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return s.getLocalPort();
        }
    }

    private static URI awaitAdminUri(Process process, Path log, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() - deadline < 0) {
            Matcher m = ADMIN_LINE.matcher(Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "");
            if (m.find()) {
                return URI.create(m.group(1) + "/api");
            }
            if (!process.isAlive()) {
                throw new IOException("the dispatcher exited with " + process.exitValue() + "; see " + log);
            }
            process.waitFor(100, TimeUnit.MILLISECONDS);
        }
        throw new IOException("the dispatcher's admin API did not come up within " + timeout.toSeconds() + " s; see " + log);
    }

    /** The dispatcher's process id, for /proc. */
    long pid() {
        return process.pid();
    }

    /** The cluster's port on 127.0.0.1. */
    int port() {
        return port;
    }

    Path log() {
        return log;
    }

    /** The access log's lines so far (none when it does not exist yet). */
    List<String> accessLog() throws IOException {
        Path file = config.resolveSibling("access.log");
        return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
    }

    /** {@code GET /api/clusters/chaos/nodes/{node}}. */
    JsonNode node(String name) throws IOException, InterruptedException {
        return JSON.readTree(call("GET", "/clusters/" + CLUSTER + "/nodes/" + name, null, 200));
    }

    /** The names of the cluster's nodes, as the dispatcher has them in force. */
    List<String> nodeNames() throws IOException, InterruptedException {
        List<String> names = new ArrayList<>();
        for (JsonNode node : JSON.readTree(call("GET", "/clusters/" + CLUSTER, null, 200)).path("nodes")) {
            names.add(node.path("name").asText());
        }
        return names;
    }

    /** {@code GET /api/policies}: every policy id this dispatcher has. */
    List<String> policies() throws IOException, InterruptedException {
        List<String> ids = new ArrayList<>();
        for (JsonNode policy : JSON.readTree(call("GET", "/policies", null, 200))) {
            ids.add(policy.path("id").asText());
        }
        return ids;
    }

    /** {@code PUT /api/clusters/chaos/policy}. */
    void switchPolicy(String id) throws IOException, InterruptedException {
        call("PUT", "/clusters/" + CLUSTER + "/policy", JSON.createObjectNode().put("policy", id).toString(), 200);
    }

    /** Rewrites the configuration file with these nodes (everything else as it was). */
    void rewriteNodes(List<FaultNodeProcess> nodes) throws IOException {
        setNodes(document, nodes);
        write(config, document);
    }

    /** Writes the cluster with these nodes to etcd (the etcd store's reload: every replica watches the key). */
    void putClusterInEtcd(EtcdMembers etcd, List<FaultNodeProcess> nodes) throws IOException, InterruptedException {
        ObjectNode copy = configuration(port, Path.of("unused"), Path.of("unused"), nodes);
        ObjectNode cluster = (ObjectNode) copy.withArray("clusters").get(0);
        cluster.put("policy", policy(cluster));
        if (retryOn != null) {
            retryOn.forEach(cluster.putArray("retryOn")::add);
        }
        etcd.put(ETCD_PREFIX + "/clusters/" + CLUSTER, cluster.toString());
    }

    /** The policy in force ({@code policy.id} of {@code GET /api/clusters/chaos}), else the one configured. */
    private String policy(ObjectNode fallback) throws IOException, InterruptedException {
        String id = JSON.readTree(call("GET", "/clusters/" + CLUSTER, null, 200)).path("policy").path("id").asText("");
        return id.isEmpty() ? fallback.path("policy").asText() : id;
    }

    /** {@code POST /api/reload}. */
    void reloadThroughApi() throws IOException, InterruptedException {
        call("POST", "/reload", null, 200);
    }

    /** {@code kill -HUP}. */
    void reloadWithSighup() throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-HUP", Long.toString(process.pid())).start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IOException("kill -HUP " + process.pid() + " failed");
        }
    }

    private String call(String method, String path, String body, int expected) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(api + path)).timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + token);
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != expected) {
            throw new IOException(method + " " + path + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    /** SIGTERM (graceful shutdown), then SIGKILL after 15 s. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
