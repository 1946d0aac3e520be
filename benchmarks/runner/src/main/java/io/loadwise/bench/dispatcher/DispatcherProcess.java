package io.loadwise.bench.dispatcher;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadwise.bench.provision.BackendNode;
import io.loadwise.bench.sweep.PolicyRow;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Loadwise dispatcher as a child JVM ({@code java -jar loadwise.jar run --config FILE}) with one
 * cluster, {@value #CLUSTER}, in front of the nodes, configured for one policy row, its listener and
 * admin API on free loopback ports. TCP rows tunnel per client connection. HTTP rows choose a node per
 * client connection too ({@code balance: per-connection}, the seed's TDCR-04), so a new choice is made
 * whenever a connection (re)opens, as on the seed's testbed; with {@code --http-balance per-request} they
 * choose per request with cookie affinity on the nodes' JSESSIONID routes instead.
 */
public final class DispatcherProcess implements AutoCloseable {

    public static final String CLUSTER = "bench";
    /** The admin server's startup line: {@code admin console on http://127.0.0.1:PORT/ (REST API under /api)}. */
    private static final Pattern ADMIN_LINE = Pattern.compile("admin console on (http://\\S+?)/? \\(REST API under /api\\)");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final Path log;
    private final AdminClient admin;
    private final int port;

    private DispatcherProcess(Process process, Path log, AdminClient admin, int port) {
        this.process = process;
        this.log = log;
        this.admin = admin;
        this.port = port;
    }

    /** Writes the configuration under {@code dir}, starts the dispatcher and waits until its cluster listens. */
    public static DispatcherProcess start(Path jar, PolicyRow row, boolean perRequest, List<BackendNode> nodes,
            String agentPath, Path dir, Duration timeout)
            throws IOException, InterruptedException {
        Files.createDirectories(dir);
        String token = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
        Path config = dir.resolve("loadwise.json");
        Files.writeString(config, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(
                configuration(row, perRequest, nodes, agentPath, token, dir.resolve("data"))), StandardCharsets.UTF_8);
        Path log = dir.resolve("dispatcher.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(java, "-Xms64m", "-Xmx256m", "-XX:+UseSerialGC", "-jar", jar.toString(),
                "run", "--config", config.toString()).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        process.getOutputStream().close();
        try {
            URI api = awaitAdminUri(process, log, timeout);
            AdminClient admin = new AdminClient(api, token);
            JsonNode bound = admin.cluster(CLUSTER).path("listen").path("bound");
            if (!bound.isTextual()) {
                throw new IOException("cluster " + CLUSTER + " is not listening: " + admin.cluster(CLUSTER));
            }
            String address = bound.asText();
            int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
            return new DispatcherProcess(process, log, admin, port);
        } catch (IOException | InterruptedException | RuntimeException e) {
            stop(process);
            throw e;
        }
    }

    static ObjectNode configuration(PolicyRow row, boolean perRequest, List<BackendNode> nodes, String agentPath,
            String token, Path dataDir) {
        ObjectNode root = JSON.createObjectNode();
        root.putObject("admin").put("listen", "127.0.0.1:0").put("token", token).put("dataDir", dataDir.toString());
        root.putObject("logging").put("level", "info").putObject("levels").put("io.netty", "warn");
        ObjectNode cluster = root.putArray("clusters").addObject();
        cluster.put("name", CLUSTER).put("mode", row.mode()).put("listen", "127.0.0.1:0").put("policy", row.policyId());
        if (!row.policyOptions().isEmpty()) {
            ObjectNode options = cluster.putObject("policyOptions");
            row.policyOptions().forEach(options::put);
        }
        if (row.mode().equals("http")) {
            cluster.put("agentPath", agentPath);
        }
        if (row.mode().equals("http") && perRequest) {
            cluster.put("balance", "per-request").put("affinity", "cookie");
        } else if (row.mode().equals("http")) {
            cluster.put("balance", "per-connection");
        }
        ArrayNode list = cluster.putArray("nodes");
        for (int i = 0; i < nodes.size(); i++) {
            BackendNode node = nodes.get(i);
            ObjectNode entry = list.addObject().put("name", node.name()).put("address", node.address())
                    .put("weight", row.weights().get(i));
            if (i == row.disabledNode()) {
                entry.put("enabled", false);
            }
            if (row.mode().equals("http") && perRequest && node.route() != null) {
                entry.put("route", node.route());
            }
        }
        return root;
    }

    private static URI awaitAdminUri(Process process, Path log, Duration timeout)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (Files.exists(log)) {
                Matcher m = ADMIN_LINE.matcher(Files.readString(log, StandardCharsets.UTF_8));
                if (m.find()) {
                    return URI.create(m.group(1) + "/api");
                }
            }
            if (!process.isAlive()) {
                throw new IOException("the dispatcher exited with " + process.exitValue() + ": " + tail(log));
            }
            process.waitFor(100, TimeUnit.MILLISECONDS);
        }
        throw new IOException("the dispatcher's admin API did not come up within " + timeout.toSeconds() + " s: "
                + tail(log));
    }

    private static String tail(Path log) throws IOException {
        if (!Files.exists(log)) {
            return "(no log)";
        }
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    }

    /** The cluster's listening port on 127.0.0.1. */
    public int port() {
        return port;
    }

    public AdminClient admin() {
        return admin;
    }

    public Path log() {
        return log;
    }

    /** SIGTERM, wait up to 10 s, then kill. */
    @Override
    public void close() {
        stop(process);
    }

    private static void stop(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
