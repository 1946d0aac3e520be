package io.loadwise.node.demo;

import io.loadwise.cli.Cli;
import io.loadwise.node.NodeCluster;
import io.loadwise.node.NodeLauncher;
import io.loadwise.node.NodeProcess;
import io.loadwise.node.NodeSpec;
import io.loadwise.node.process.ChildJvm;
import io.loadwise.scenario.CapacityScenario;
import io.loadwise.wire.OrcaLoadReport;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;

/**
 * {@code loadwise demo}: a whole working cluster on this machine, for a newcomer to look at.
 *
 * <p>Starts, in this order, each as its own process: the H2 database, three trade-app nodes on embedded
 * Tomcat with the agent, and the dispatcher ({@code loadwise.jar run}) with the jvm-aware policy and
 * the admin API; then fills the database, checks a request through the dispatcher, prints the URLs and
 * runs a light background load until Ctrl-C, which stops every process it started.
 */
public final class DemoMain {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);
    private static final Duration AGENT_TIMEOUT = Duration.ofSeconds(30);
    private static final String DISPATCHER_READY = "loadwise running with";
    private static final String MARKER = ".loadwise-demo";
    /** The dispatcher's minimum (AdminToken.MIN_LENGTH); the tokens this class generates have 24 characters. */
    private static final int MIN_TOKEN_LENGTH = 16;

    private final DemoOptions options;
    private final PrintStream out;
    private final List<AutoCloseable> started = new ArrayList<>();

    DemoMain(DemoOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the demo; returns the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        DemoOptions options = new DemoOptions();
        return Cli.execute(Cli.configure(new CommandLine(options)), args, out, err,
                chosen -> run(options.check(), out, err));
    }

    private static int run(DemoOptions options, PrintStream out, PrintStream err) {
        DemoMain demo = new DemoMain(options, out);
        Thread stopper = new Thread(demo::stopAll, "demo-shutdown");
        Runtime.getRuntime().addShutdownHook(stopper);
        try {
            demo.startAndServe();
            return 0;
        } catch (DemoException e) {
            err.println("loadwise demo: " + e.getMessage());
            return 1;
        } catch (IOException e) {
            err.println("loadwise demo: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 130;
        } finally {
            demo.stopAll();
            try {
                Runtime.getRuntime().removeShutdownHook(stopper);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is running already.
            }
        }
    }

    private void startAndServe() throws IOException, InterruptedException {
        String token = secret("LOADWISE_ADMIN_TOKEN");
        if (token.strip().length() < MIN_TOKEN_LENGTH) {
            // Checked before anything starts: the dispatcher would refuse it only after the nodes are up.
            throw new DemoException("LOADWISE_ADMIN_TOKEN: too short (" + token.strip().length() + " characters); an "
                    + "admin token needs at least " + MIN_TOKEN_LENGTH + ", for example the output of `openssl rand -hex 24`");
        }
        checkPortsFree();
        Path work = prepareWorkDir();
        String password = secret("LOADWISE_ADMIN_PASSWORD");

        out.println("[1/4] starting the database and three trade-app nodes (VCN1..3) ...");
        NodeLauncher.Builder launcher = NodeLauncher.builder().workRoot(work.resolve("nodes"));
        if (options.agentJar() != null) {
            launcher.agentJar(options.agentJar());
        }
        NodeCluster nodes = NodeCluster.start(launcher.build(), 0,
                NodeSpec.table9(CapacityScenario.BASELINE, options.nodePorts()), START_TIMEOUT);
        started.add(nodes);
        URI first = nodes.nodes().get(0).baseUri();
        get(first.resolve("/trade/config?action=buildDB&users=" + options.users() + "&quotes=100"), null, 200);

        out.println("[2/4] starting the dispatcher (policy " + options.policy() + ") ...");
        List<String> names = nodes.nodes().stream().map(NodeProcess::name).toList();
        Path config = DemoConfig.write(work.resolve("loadwise-demo.json"), options, names);
        ChildJvm dispatcher = startDispatcher(config, work.resolve("logs/dispatcher.out"), token, password);
        started.add(0, dispatcher);

        out.println("[3/4] checking a request through the dispatcher ...");
        URI scenario = URI.create("http://127.0.0.1:" + options.dispatcherPort() + "/trade/scenario");
        HttpResponse<String> response = get(scenario, null, 200);
        if (response.headers().firstValue(OrcaLoadReport.HEADER_NAME).isPresent()) {
            throw new DemoException("the dispatcher let an " + OrcaLoadReport.HEADER_NAME
                    + " header through to the client");
        }
        URI api = URI.create("http://127.0.0.1:" + options.adminPort() + "/api/clusters/" + DemoConfig.CLUSTER);
        awaitAgentMetrics(api, token);

        printUrls(nodes, config, token, password);
        if (options.exitWhenReady()) {
            out.println("[4/4] --exit-when-ready: stopping again.");
            return;
        }
        out.println("[4/4] running a light load with " + options.loadUsers() + " users; Ctrl-C stops everything.");
        DemoLoad load = new DemoLoad(scenario, options.loadUsers());
        started.add(0, load);
        CountDownLatch forever = new CountDownLatch(1);
        long lastOk = 0;
        while (!forever.await(10, java.util.concurrent.TimeUnit.SECONDS)) {
            long ok = load.ok();
            out.printf("demo: %d requests ok (%.1f/s over the last 10 s), %d failed; selections %s%n",
                    ok, (ok - lastOk) / 10.0, load.failed(), selections(api, token));
            lastOk = ok;
        }
    }

    /** The policy decides on agent data: wait until every node's agent has reached the dispatcher. */
    private void awaitAgentMetrics(URI api, String token) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + AGENT_TIMEOUT.toNanos();
        List<String> missing = DemoJson.nodesWithoutFreshMetrics(get(api, token, 200).body(), 3_000);
        while (!missing.isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new DemoException("no agent metrics from " + missing + " after " + AGENT_TIMEOUT.toSeconds()
                        + " s; see the node logs under " + options.workDir().resolve("nodes"));
            }
            Thread.sleep(250); // polling the API for a state change with a deadline
            missing = DemoJson.nodesWithoutFreshMetrics(get(api, token, 200).body(), 3_000);
        }
        out.println("      agent metrics arriving from every node");
    }

    private ChildJvm startDispatcher(Path config, Path log, String token, String password) throws IOException,
            InterruptedException {
        List<String> command = List.of(ChildJvm.javaExecutable(), "-Xmx512m", "-jar",
                options.dispatcherJar().toAbsolutePath().toString(), "run", "--config", config.toString());
        Map<String, String> env = new HashMap<>();
        env.put("LOADWISE_ADMIN_TOKEN", token);
        env.put("LOADWISE_ADMIN_PASSWORD", password);
        ChildJvm dispatcher = ChildJvm.start("dispatcher", command, env, log, DISPATCHER_READY);
        try {
            dispatcher.awaitReady(START_TIMEOUT);
        } catch (IOException e) {
            dispatcher.close();
            throw e;
        }
        return dispatcher;
    }

    private void printUrls(NodeCluster nodes, Path config, String token, String password) {
        String admin = "http://127.0.0.1:" + options.adminPort();
        out.println();
        out.println("Loadwise demo is running.");
        out.println("  Trade app through the dispatcher:  http://127.0.0.1:" + options.dispatcherPort()
                + "/trade/scenario");
        out.println("  Admin console:                     " + admin + "/   (user admin, password " + password + ")");
        out.println("  Admin API token:                   " + token);
        out.println("  Cluster state:  curl -H 'Authorization: Bearer " + token + "' " + admin + "/api/clusters/"
                + DemoConfig.CLUSTER);
        out.println("  Live figures:   curl -H 'Authorization: Bearer " + token + "' " + admin + "/api/clusters/"
                + DemoConfig.CLUSTER + "/stats");
        for (NodeProcess node : nodes.nodes()) {
            out.println("  Node " + node.name() + ":  " + node.baseUri() + "   agent metrics: "
                    + node.baseUri().resolve("loadwise-agent/metrics.html"));
        }
        out.println("  Configuration:  " + config);
        out.println("  Logs:           " + config.getParent().resolve("logs") + " and "
                + config.getParent().resolve("nodes"));
        out.println();
    }

    private String selections(URI api, String token) {
        try {
            String body = get(api, token, 200).body();
            return DemoJson.selectionsByNode(body);
        } catch (IOException | InterruptedException | RuntimeException e) {
            return "(unavailable: " + e.getMessage() + ")";
        }
    }

    private HttpResponse<String> get(URI uri, String token, int expected) throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(120)).GET();
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != expected) {
            throw new DemoException("GET " + uri + " answered " + response.statusCode() + ", expected " + expected
                    + ": " + abbreviate(response.body()));
        }
        return response;
    }

    private void checkPortsFree() {
        List<Integer> ports = new ArrayList<>(options.nodePorts());
        ports.add(options.dispatcherPort());
        ports.add(options.adminPort());
        for (int port : ports) {
            try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                probe.setReuseAddress(true);
            } catch (IOException e) {
                throw new DemoException("port " + port + " on 127.0.0.1 is in use (is a demo already running?); "
                        + "free it or move the demo with --dispatcher-port/--admin-port/--node-ports");
            }
        }
    }

    /** A fresh work directory; an old demo's directory (it has our marker) is cleared first. */
    private Path prepareWorkDir() throws IOException {
        Path work = options.workDir().toAbsolutePath();
        if (Files.exists(work)) {
            if (!Files.exists(work.resolve(MARKER))) {
                try (var entries = Files.list(work)) {
                    if (entries.findAny().isPresent()) {
                        throw new DemoException(work + " exists and is not a demo directory; choose --work-dir");
                    }
                }
            }
            try (var paths = Files.walk(work)) {
                for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    if (!p.equals(work)) {
                        Files.delete(p);
                    }
                }
            }
        }
        Files.createDirectories(work);
        Files.writeString(work.resolve(MARKER), "created by loadwise demo; cleared by the next one\n");
        return work;
    }

    /** The variable's value, or a fresh random secret of 24 URL-safe characters (18 random bytes). */
    static String secret(String variable) {
        String value = System.getenv(variable);
        if (value != null && !value.isBlank()) {
            return value;
        }
        byte[] bytes = new byte[18];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String abbreviate(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "...";
    }

    /** Stops what was started, newest first; safe to call twice. */
    synchronized void stopAll() {
        if (started.isEmpty()) {
            return;
        }
        out.println("demo: stopping everything ...");
        for (AutoCloseable part : started) {
            try {
                part.close();
            } catch (Exception e) {
                out.println("demo: stopping " + part + " failed: " + e);
            }
        }
        started.clear();
        out.println("demo: stopped.");
    }

    /** A demo step failed; the message says which and why. */
    static final class DemoException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        DemoException(String message) {
            super(message);
        }
    }
}
