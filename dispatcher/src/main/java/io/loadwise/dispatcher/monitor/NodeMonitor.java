package io.loadwise.dispatcher.monitor;

import io.loadwise.dispatcher.cluster.AgentState;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.policy.AgentSample;
import io.loadwise.policy.PolicyInput;
import io.loadwise.wire.AgentMetricsDocument;
import io.loadwise.wire.MalformedLoadReportException;
import io.loadwise.wire.MetricsJson;
import io.loadwise.wire.OrcaLoadReport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node monitoring service (TAPR-04a): keeps every node's {@link AgentSample} fresh for clusters whose
 * policy reads agent metrics.
 *
 * <p>Two sources feed it. The HTTP proxy hands over every {@code endpoint-load-metrics} header it strips
 * from a response ({@link #acceptLoadReport}); and each node's agent endpoint is polled every
 * {@code agentPollIntervalMs} (TAPR-04b) with the JDK's asynchronous HTTP client, so no thread waits on
 * a slow agent. An agent that gives no good sample for longer than {@code agentExpiryMs} (unreachable,
 * an error status, an unreadable document) is {@link AgentState#UNKNOWN}: logged once, re-probed every
 * {@code agentReprobeMs} (TAPR-05), and its node stays in selection, where the agent-driven policies
 * apply their fallback for it. Any good sample, polled or piggybacked, makes it {@link AgentState#OK}
 * again at once.
 *
 * <p>Everything here runs on one scheduler thread or the HTTP client's threads; pickers are rebuilt by
 * {@link RefreshCoalescer}, never on an event loop.
 */
public final class NodeMonitor implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(NodeMonitor.class);
    private static final long REFRESH_PERIOD_MILLIS = 100;

    private final ScheduledExecutorService scheduler;
    private final HttpClient http;
    private final RefreshCoalescer refresher;
    private final Map<NodeState, AgentStats> stats = new ConcurrentHashMap<>();
    private final Map<VirtualCluster, Boolean> watched = new ConcurrentHashMap<>();
    /** The latest unparsed report per node, waiting for the monitor thread; bounded by the node count. */
    private final Map<NodeState, PendingReport> pendingReports = new ConcurrentHashMap<>();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();

    public NodeMonitor() {
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "loadwise-node-monitor");
            t.setDaemon(true);
            return t;
        });
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1) // agents live in HTTP/1.1 servlet containers
                .connectTimeout(Duration.ofSeconds(2))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        this.refresher = new RefreshCoalescer(scheduler, REFRESH_PERIOD_MILLIS);
    }

    /** Starts polling the cluster's agents (each poll first checks the policy still wants metrics). */
    public void watch(VirtualCluster cluster) {
        if (watched.putIfAbsent(cluster, Boolean.TRUE) != null) {
            return;
        }
        cluster.setRefresher(refresher::markDirty);
        for (NodeState node : cluster.nodes()) {
            stats.computeIfAbsent(node, n -> new AgentStats());
            scheduler.execute(() -> poll(cluster, node));
        }
    }

    /** Stops polling a cluster (it was deleted or replaced). */
    public void unwatch(VirtualCluster cluster) {
        watched.remove(cluster);
        for (NodeState node : cluster.nodes()) {
            stats.remove(node);
        }
    }

    /** Agent statistics of a node, or {@code null} when it is not monitored. */
    public AgentStats stats(NodeState node) {
        return stats.get(node);
    }

    /**
     * A load report header arrived on a response from {@code node}: called from event loops, it only
     * records the header and hands the parsing to the monitor thread. Reports are snapshots, so when
     * several arrive before the thread gets to them, the latest per node is the one parsed.
     */
    public void offerLoadReport(VirtualCluster cluster, NodeState node, String headerValue) {
        pendingReports.put(node, new PendingReport(cluster, headerValue));
        if (drainScheduled.compareAndSet(false, true)) {
            scheduler.execute(this::drainReports);
        }
    }

    private void drainReports() {
        drainScheduled.set(false);
        for (Map.Entry<NodeState, PendingReport> entry : pendingReports.entrySet()) {
            if (pendingReports.remove(entry.getKey(), entry.getValue())) {
                try {
                    acceptLoadReport(entry.getValue().cluster(), entry.getKey(), entry.getValue().header());
                } catch (RuntimeException e) {
                    log.warn("cluster {}: a load report of node {} could not be applied: {}",
                            entry.getValue().cluster().name(), entry.getKey().name(), e.toString());
                }
            }
        }
    }

    private record PendingReport(VirtualCluster cluster, String header) {
    }

    /**
     * A load report header arrived on a response from {@code node}. Runs on the monitor thread: parses,
     * stores and returns; the picker is rebuilt later. A valid report is a sign of life: it makes an
     * unknown agent OK at once. A malformed header is ignored, counted and logged at most once a minute
     * per node.
     */
    public void acceptLoadReport(VirtualCluster cluster, NodeState node, String headerValue) {
        AgentStats nodeStats = stats.computeIfAbsent(node, n -> new AgentStats());
        Map<String, Double> reported;
        try {
            reported = OrcaLoadReport.parse(headerValue);
        } catch (MalformedLoadReportException e) {
            malformed(cluster, node, nodeStats, "load report header", e.getMessage());
            return;
        }
        if (reported.isEmpty()) {
            return; // a valid report that says nothing changes nothing
        }
        // The header carries only the policy subset; keep the rest of the last full (polled) sample so
        // the console still shows every metric.
        AgentSample previous = node.latestAgentSample();
        Map<String, Double> merged = previous == null ? new HashMap<>() : new HashMap<>(previous.metrics());
        merged.putAll(reported);
        node.updateAgentSample(new AgentSample(System.currentTimeMillis(), AgentSample.Source.PIGGYBACK, merged));
        nodeStats.piggybackAccepted(System.nanoTime());
        signOfLife(cluster, node, nodeStats, "a piggybacked load report");
        if (cluster.policy().inputs().contains(PolicyInput.AGENT_METRICS)) {
            refresher.markDirty(cluster);
        }
    }

    private void poll(VirtualCluster cluster, NodeState node) {
        if (!watched.containsKey(cluster)) {
            return;
        }
        long interval = cluster.config().agentPollIntervalMsOrDefault();
        if (!cluster.policy().inputs().contains(PolicyInput.AGENT_METRICS) || !node.configuredEnabled()) {
            scheduler.schedule(() -> poll(cluster, node), interval, TimeUnit.MILLISECONDS);
            return;
        }
        URI uri = URI.create("http://" + node.address().getHostString() + ":" + node.address().getPort()
                + node.agentPath());
        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(Duration.ofMillis(Math.max(1_000, interval)))
                .header("Accept", "application/json")
                .GET()
                .build();
        long start = System.nanoTime();
        http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).whenComplete((response, error) -> {
            boolean ok = false;
            try {
                if (error != null) {
                    agentUnreachable(cluster, node, describe(error));
                } else {
                    ok = handleResponse(cluster, node, response, System.nanoTime() - start);
                }
            } catch (RuntimeException e) {
                log.warn("cluster {}: handling the agent poll of node {} failed", cluster.name(), node.name(), e);
            } finally {
                // Whatever happened, keep polling: a node is never left without a next poll.
                if (watched.containsKey(cluster)) {
                    scheduler.schedule(() -> poll(cluster, node), nextPollDelayMillis(cluster, node, ok),
                            TimeUnit.MILLISECONDS);
                }
            }
        });
    }

    /** "ConnectException: Connection refused", without the CompletionException the async client wraps it in. */
    private static String describe(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
    }

    /**
     * The normal poll interval, or {@code agentReprobeMs} (TAPR-05) once the agent has been reported
     * silent: a node without an agent is not asked every second for ever.
     */
    private long nextPollDelayMillis(VirtualCluster cluster, NodeState node, boolean ok) {
        AgentStats nodeStats = stats.get(node);
        boolean silent = !ok && nodeStats != null && nodeStats.silent();
        return silent ? cluster.config().agentReprobeMsOrDefault() : cluster.config().agentPollIntervalMsOrDefault();
    }

    private boolean handleResponse(VirtualCluster cluster, NodeState node, HttpResponse<String> response,
            long elapsedNanos) {
        AgentStats nodeStats = stats.computeIfAbsent(node, n -> new AgentStats());
        if (response.statusCode() != 200) {
            agentUnreachable(cluster, node, "agent answered HTTP " + response.statusCode());
            return false;
        }
        AgentMetricsDocument document;
        try {
            document = MetricsJson.parse(response.body());
        } catch (MalformedLoadReportException e) {
            malformed(cluster, node, nodeStats, "metrics document", e.getMessage());
            agentUnreachable(cluster, node, "malformed metrics document");
            return false;
        }
        nodeStats.pollSucceeded(System.nanoTime(), elapsedNanos);
        node.updateAgentSample(new AgentSample(document.timestampMillis(), AgentSample.Source.POLL, document.metrics()));
        signOfLife(cluster, node, nodeStats, "a poll");
        refresher.markDirty(cluster);
        return true;
    }

    /** A good sample arrived; ends a reported silence (the node state itself is already OK). */
    private static void signOfLife(VirtualCluster cluster, NodeState node, AgentStats nodeStats, String how) {
        if (nodeStats.clearSilent()) {
            log.info("cluster {}: agent of node {} answers again ({}); its metrics are used again",
                    cluster.name(), node.name(), how);
        }
    }

    /**
     * One poll failed. The agent becomes {@link AgentState#UNKNOWN} once it has had no good sample for
     * longer than the sample expiry: a single slow answer from a busy node changes nothing, but stale
     * metrics are never used. The node stays in selection either way. The silence is logged once, after
     * one expiry period (a node that was just added gets that long to answer first).
     */
    private void agentUnreachable(VirtualCluster cluster, NodeState node, String why) {
        AgentStats nodeStats = stats.computeIfAbsent(node, n -> new AgentStats());
        nodeStats.pollFailed(why);
        if (node.agentSilent(why)) {
            refresher.markDirty(cluster); // the picker still holds the expired sample's figures
        }
        long expiryNanos = cluster.config().agentExpiryMsOrDefault() * 1_000_000L;
        if (node.agentState() != AgentState.OK && nodeStats.nanosSinceSignOfLife(System.nanoTime()) > expiryNanos
                && nodeStats.markSilent()) {
            log.warn("cluster {}: agent of node {} at {}:{}{} cannot be read ({}); the node stays in selection,"
                    + " {} treats it as unknown (see docs/policies.md), and the agent is re-probed every {} ms",
                    cluster.name(), node.name(), node.address().getHostString(), node.address().getPort(),
                    node.agentPath(), why, cluster.policy().id(), cluster.config().agentReprobeMsOrDefault());
        }
    }

    private static void malformed(VirtualCluster cluster, NodeState node, AgentStats nodeStats, String what, String why) {
        nodeStats.malformedReport(why);
        if (nodeStats.shouldLogMalformed(System.currentTimeMillis())) {
            log.warn("cluster {}: ignored a malformed {} from node {}: {} ({} ignored so far; logged at most once a minute)",
                    cluster.name(), what, node.name(), why, nodeStats.malformedReports());
        }
    }

    @Override
    public void close() {
        watched.clear();
        refresher.close();
        scheduler.shutdownNow();
    }
}
