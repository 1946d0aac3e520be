package io.loadwise.bench.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadwise.bench.dispatcher.DispatcherProcess;
import io.loadwise.bench.dispatcher.StatsTrace;
import io.loadwise.bench.jmeter.JMeterRun;
import io.loadwise.bench.jmeter.JtlSummary;
import io.loadwise.bench.provision.BackendNode;
import io.loadwise.bench.provision.ClusterProvisioner;
import io.loadwise.bench.provision.ClusterProvisioner.ProvisionedCluster;
import io.loadwise.scenario.CapacityScenario;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One cell of the sweep, the seed's eight experiment steps: fresh database and nodes with the scenario's
 * capacities, reset the data, dispatcher with the policy row, JMeter, collect both sides' figures, stop
 * everything, and check that no child process is left.
 */
public final class CellRunner {

    /** The agent's metrics path inside the application (its web fragment's mapping). */
    static final String AGENT_METRICS = "/loadwise-agent/metrics";

    private static final Logger LOG = LoggerFactory.getLogger(CellRunner.class);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);

    private final ClusterProvisioner provisioner;
    private final CapacityPlan capacity;
    private final Path dispatcherJar;
    private final JMeterRun jmeter;
    private final Workload workload;
    private final Path workRoot;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public CellRunner(ClusterProvisioner provisioner, CapacityPlan capacity, Path dispatcherJar, JMeterRun jmeter,
            Workload workload, Path workRoot) {
        this.provisioner = provisioner;
        this.capacity = capacity;
        this.dispatcherJar = dispatcherJar;
        this.jmeter = jmeter;
        this.workload = workload;
        this.workRoot = workRoot;
    }

    /** Runs the cell; writes its trace to {@code traceCsv}; never throws for a failure of the cell itself. */
    public CellResult run(CapacityScenario scenario, PolicyRow row, Path traceCsv) throws InterruptedException {
        String scenarioKey = scenario.key();
        String startedAt = Instant.now().toString();
        long started = System.nanoTime();
        Path workDir = workRoot.resolve(scenarioKey + "-" + row.key());
        try {
            deleteTree(workDir);
            CellResult result = runCell(scenario, row, workDir, traceCsv, startedAt, started);
            String leftover = leftoverProcesses();
            if (leftover != null) {
                return CellResult.failed(scenarioKey, row.key(), "processes left running after the cell: " + leftover,
                        startedAt, seconds(started));
            }
            return result;
        } catch (IOException | RuntimeException e) {
            LOG.warn("cell {} x {} failed: {}", scenarioKey, row.key(), e.getMessage());
            String leftover = leftoverProcesses();
            return CellResult.failed(scenarioKey, row.key(), e.getMessage() + (leftover == null ? ""
                    : "; processes left running: " + leftover) + " (work directory " + workDir + ")", startedAt,
                    seconds(started));
        }
    }

    private CellResult runCell(CapacityScenario scenario, PolicyRow row, Path workDir, Path traceCsv,
            String startedAt, long started) throws IOException, InterruptedException {
        try (ProvisionedCluster cluster = provisioner.start(capacity.capacities(scenario), workDir.resolve("nodes"),
                START_TIMEOUT)) {
            List<BackendNode> nodes = cluster.nodes();
            // the agent is a web fragment of the application, so its metrics live under the app's context path
            String agentPath = URI.create(cluster.applicationUrl(nodes.get(0))).getPath() + AGENT_METRICS;
            // the dispatcher JVM starts while the database is reset and the nodes answer their first requests
            CompletableFuture<DispatcherProcess> starting = CompletableFuture.supplyAsync(() -> {
                try {
                    return DispatcherProcess.start(dispatcherJar, row, workload.perRequest(), nodes, agentPath,
                            workDir.resolve("dispatcher"), Duration.ofSeconds(90));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while starting the dispatcher", e);
                }
            });
            try {
                resetDatabase(cluster, nodes);
            } catch (IOException | InterruptedException | RuntimeException e) {
                starting.handle((d, failure) -> {
                    if (d != null) {
                        d.close();
                    }
                    return null;
                }).join();
                throw e;
            }
            try (DispatcherProcess dispatcher = started(starting)) {
                Path jtl = workDir.resolve("jmeter").resolve("results.jtl");
                try (StatsTrace trace = StatsTrace.start(dispatcher.admin(), row.mode().equals("http"))) {
                    Map<String, String> properties = new LinkedHashMap<>(JMeterRun.planProperties("127.0.0.1",
                            dispatcher.port(), workload.path(), workload.durations()));
                    properties.put("httpclient4.time_to_live", Integer.toString(workload.connectionTtlMs()));
                    jmeter.run(workload.plan(), jtl, properties, Duration.ofSeconds(
                            workload.durations().totalSeconds() * 3L + 120));
                    JsonNode stats = dispatcher.admin().stats(DispatcherProcess.CLUSTER);
                    JsonNode clusterInfo = dispatcher.admin().cluster(DispatcherProcess.CLUSTER);
                    trace.close();
                    Files.createDirectories(traceCsv.getParent());
                    trace.write(traceCsv);
                    JtlSummary jtlSummary = JtlSummary.read(jtl);
                    Map<String, Long> noConnection = NoConnectionLog.countPerNode(cluster, nodes);
                    // Everything is measured: kill the JVMs rather than wait for graceful shutdowns, which take
                    // 10-15 s per cell on a loaded machine; the nodes keep no state (the database is reset per cell)
                    ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
                    return result(scenario, row, jtlSummary, stats, clusterInfo, trace, startedAt, started,
                            noConnection);
                }
            }
        }
    }

    private static DispatcherProcess started(CompletableFuture<DispatcherProcess> starting)
            throws IOException, InterruptedException {
        try {
            return starting.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UncheckedIOException io) {
                throw io.getCause();
            }
            throw new IOException("the dispatcher did not start: " + e.getCause(), e.getCause());
        }
    }

    /** Resets the database through the first node, then waits until every node serves the workload path. */
    private void resetDatabase(ProvisionedCluster cluster, List<BackendNode> nodes)
            throws IOException, InterruptedException {
        if (workload.resetPath() == null) {
            return;
        }
        String base = "http://" + nodes.get(0).address();
        HttpResponse<String> reset = http.send(HttpRequest.newBuilder(URI.create(base + workload.resetPath()))
                .timeout(Duration.ofSeconds(120)).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (reset.statusCode() != 200) {
            throw new IOException("database reset " + base + workload.resetPath() + " answered " + reset.statusCode()
                    + ": " + reset.body());
        }
        for (BackendNode node : nodes) {
            URI uri = URI.create("http://" + node.address() + workload.path());
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            int status = 0;
            while (System.nanoTime() - deadline < 0) {
                status = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode();
                if (status == 200) {
                    break;
                }
                Thread.sleep(250); // poll: the other nodes re-read the database size every few seconds
            }
            if (status != 200) {
                throw new IOException("node " + node.name() + " answers " + status + " on " + uri
                        + " after the database reset\n" + cluster.diagnostics());
            }
        }
    }

    private static CellResult result(CapacityScenario scenario, PolicyRow row, JtlSummary jtl, JsonNode stats,
            JsonNode clusterInfo, StatsTrace trace, String startedAt, long started, Map<String, Long> noConnection) {
        JsonNode totals = stats.path("totals");
        Map<String, Long> selections = new LinkedHashMap<>();
        for (JsonNode node : stats.path("nodes")) {
            selections.put(node.path("name").asText(), node.path("selections").asLong());
        }
        double activeSum = 0;
        int activeCount = 0;
        for (StatsTrace.Point p : trace.points()) {
            if (p.epochMillis() >= jtl.firstStartMs() + 1000 && p.epochMillis() <= jtl.lastEndMs()) {
                activeSum += p.activeConnections();
                activeCount++;
            }
        }
        Map<String, Long> failuresByNode = new LinkedHashMap<>();
        boolean agentLive = clusterInfo.path("nodes").size() > 0;
        for (JsonNode node : clusterInfo.path("nodes")) {
            String name = node.path("name").asText();
            failuresByNode.put(name, node.path("failures").asLong() + noConnection.getOrDefault(name, 0L));
            JsonNode agent = node.path("agent");
            agentLive &= agent.isObject() && agent.path("ageMs").asLong(Long.MAX_VALUE) < 10_000;
        }
        long lbSelections = totals.path("selections").asLong();
        return new CellResult(scenario.key(), row.key(), null, jtl.samples(), jtl.failed(),
                jtl.failedPercent(), jtl.completedPerSecond(), jtl.meanMs(), jtl.p50Ms(), jtl.p90Ms(), jtl.p99Ms(),
                jtl.failuresByCode(), totals.path("samples").asLong(), totals.path("failed").asLong(),
                activeCount == 0 ? 0 : activeSum / activeCount, totals.path("latencyMillis").asDouble(),
                totals.path("wt1Millis").asDouble(), totals.path("wt2Millis").asDouble(),
                totals.path("ptMillis").asDouble(), totals.path("slowdown").asDouble(),
                jtl.durationSeconds() == 0 ? 0 : lbSelections / jtl.durationSeconds(), selections, agentLive,
                startedAt, seconds(started), jtl.durationSeconds(), trace.peakLoad(),
                failuresByNode, 0, 0, null, null);
    }

    /** Child processes of this JVM still alive after a cell (killed, and named), or null when there are none. */
    static String leftoverProcesses() {
        List<ProcessHandle> alive = ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList();
        if (alive.isEmpty()) {
            return null;
        }
        StringBuilder names = new StringBuilder();
        for (ProcessHandle p : alive) {
            names.append(p.pid()).append(' ').append(p.info().command().orElse("?")).append("; ");
            p.destroyForcibly();
        }
        return names.toString();
    }

    private static double seconds(long startedNanos) {
        return (System.nanoTime() - startedNanos) / 1e9;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
