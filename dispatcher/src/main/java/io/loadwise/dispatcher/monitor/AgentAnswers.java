package io.loadwise.dispatcher.monitor;

import io.loadwise.dispatcher.cluster.AgentState;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.AgentSettings;
import io.loadwise.policy.AgentSample;
import io.loadwise.policy.PolicyInput;
import io.loadwise.wire.AgentMetricsDocument;
import io.loadwise.wire.MalformedLoadReportException;
import io.loadwise.wire.MetricsJson;
import io.loadwise.wire.OrcaLoadReport;
import java.net.ConnectException;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the {@link NodeMonitor} makes of what it hears from a node: a piggybacked load report, an agent's poll
 * answer (a sample, a refusal, an error), a failed poll, and what the status of the agent path says about the
 * application ({@link Readiness}). The monitor decides when to ask; this class updates the node, its
 * {@link AgentStats} and the picker, and logs (under the monitor's logger, which operators filter on).
 * Runs on the monitor's scheduler thread or the HTTP client's threads, never on an event loop.
 */
final class AgentAnswers {

    private static final Logger log = LoggerFactory.getLogger(NodeMonitor.class);

    private final Map<NodeState, AgentStats> stats;
    private final RefreshCoalescer refresher;

    AgentAnswers(Map<NodeState, AgentStats> stats, RefreshCoalescer refresher) {
        this.stats = stats;
        this.refresher = refresher;
    }

    /**
     * A load report header arrived on a response from {@code node}. Runs on the monitor thread: parses,
     * stores and returns; the picker is rebuilt later. A valid report is a sign of life: it makes an
     * unknown or unauthorized agent OK at once, and a silent agent is polled at once for its full sample.
     * A malformed header is ignored, counted and logged at most once a minute per node.
     *
     * @return whether the report was a sign of life of an agent reported silent (then poll it now)
     */
    boolean loadReport(VirtualCluster cluster, NodeState node, String headerValue) {
        AgentStats nodeStats = stats.computeIfAbsent(node, n -> new AgentStats());
        Map<String, Double> reported;
        try {
            reported = OrcaLoadReport.parse(headerValue);
        } catch (MalformedLoadReportException e) {
            malformed(cluster, node, nodeStats, "load report header", e.getMessage());
            return false;
        }
        if (reported.isEmpty()) {
            return false; // a valid report that says nothing changes nothing
        }
        // The header carries only the policy subset; keep the rest of the last full (polled) sample so
        // the console still shows every metric.
        AgentSample previous = node.latestAgentSample();
        Map<String, Double> merged = previous == null ? new HashMap<>() : new HashMap<>(previous.metrics());
        merged.putAll(reported);
        node.updateAgentSample(new AgentSample(System.currentTimeMillis(), AgentSample.Source.PIGGYBACK, merged));
        nodeStats.piggybackAccepted();
        boolean revived = signOfLife(cluster, node, nodeStats, "a piggybacked load report");
        if (cluster.policy().inputs().contains(PolicyInput.AGENT_METRICS)) {
            refresher.markDirty(cluster);
        }
        return revived;
    }

    /** Connect failures, or the wait for its application, hold the node out: it is probed every second. */
    static boolean heldOut(NodeState node) {
        return node.connectDown() || node.awaitingReadiness();
    }

    /**
     * What the answer of the node's agent path says about its application ({@link Readiness}): readmits a node
     * held out when it serves; holds a node in selection out when its agent answered before
     * ({@code agentAnswered}: a node in selection is asked only then, polled under an agent-driven policy or
     * {@linkplain NodeMonitor suspected}) and the container now answers for an application that went away.
     * A node with a health check ({@code healthChecked}) is readmitted by that check alone.
     */
    void judgeReadiness(VirtualCluster cluster, NodeState node, int status, boolean agentAnswered,
            boolean healthChecked) {
        Readiness readiness = Readiness.of(status, node.readinessGated());
        if (readiness == Readiness.READY) {
            // With a health check, it says when the application serves: an agent (a filter) can answer before
            // the application's own servlets do (GlassFish: 30 ms of 404s between the two, 6 requests lost)
            if (heldOut(node) && !healthChecked) {
                if (node.markReady()) {
                    log.info("cluster {}: node {} is ready: its agent path answered {}; back in selection",
                            cluster.name(), node.name(), status);
                }
                refresher.markDirty(cluster);
            }
        } else if (agentAnswered && !heldOut(node) && Readiness.applicationGone(status) && node.holdUntilReady()) {
            log.warn("cluster {}: node {}: its agent path answers {}: the application is not deployed; out of"
                    + " selection until its agent answers 200, probed every second", cluster.name(), node.name(),
                    status);
            refresher.markDirty(cluster);
        }
    }

    static boolean refused(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return cause instanceof ConnectException;
    }

    /** "ConnectException: Connection refused", without the CompletionException the async client wraps it in. */
    static String describe(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
    }

    /** A poll of an agent-driven cluster's agent answered: takes the sample; whether it was a good one. */
    boolean pollAnswered(VirtualCluster cluster, NodeState node, HttpResponse<String> response, long elapsedNanos) {
        AgentStats nodeStats = stats.computeIfAbsent(node, n -> new AgentStats());
        if (response.statusCode() == 401) {
            agentRefused(cluster, node, nodeStats);
            return false;
        }
        if (response.statusCode() != 200) {
            agentUnreachable(cluster, node, "agent answered HTTP " + response.statusCode(), AgentState.UNKNOWN);
            return false;
        }
        AgentMetricsDocument document;
        try {
            document = MetricsJson.parse(response.body());
        } catch (MalformedLoadReportException e) {
            malformed(cluster, node, nodeStats, "metrics document", e.getMessage());
            agentUnreachable(cluster, node, "malformed metrics document", AgentState.UNKNOWN);
            return false;
        }
        nodeStats.pollSucceeded(elapsedNanos);
        node.updateAgentSample(new AgentSample(document.timestampMillis(), AgentSample.Source.POLL, document.metrics()));
        signOfLife(cluster, node, nodeStats, "a poll");
        refresher.markDirty(cluster);
        return true;
    }

    /**
     * A good sample arrived; ends a reported silence and the back-off (the node state itself is already OK).
     *
     * @return whether the agent had been reported silent
     */
    private static boolean signOfLife(VirtualCluster cluster, NodeState node, AgentStats nodeStats, String how) {
        if (nodeStats.schedule().signOfLife(System.nanoTime())) {
            log.info("cluster {}: agent of node {} answers again ({}); its metrics are used again",
                    cluster.name(), node.name(), how);
            return true;
        }
        return false;
    }

    /**
     * The agent answered 401: it has a shared secret and the dispatcher sent none or another one. That is
     * a configuration mistake, so it is said at once, once per node until a poll succeeds, with what to
     * set. The node stays in selection; without a fresh (piggybacked) sample the agent is
     * {@link AgentState#UNAUTHORIZED}, which the policies treat as unknown.
     */
    private void agentRefused(VirtualCluster cluster, NodeState node, AgentStats nodeStats) {
        String where = node.address().getHostString() + ":" + node.address().getPort() + node.agentPath();
        if (nodeStats.markRefusalLogged()) {
            log.warn("cluster {}: agent at {} (node {}) refused the poll: wrong or missing agent secret; set"
                    + " agent.secret or {}. The node stays in selection, {} treats it as unknown (see"
                    + " docs/policies.md)", cluster.name(), where, node.name(), AgentSettings.SECRET_ENV,
                    cluster.policy().id());
        }
        agentUnreachable(cluster, node, "agent refused the poll (HTTP 401): wrong or missing agent secret",
                AgentState.UNAUTHORIZED);
    }

    /**
     * One poll failed. The agent becomes {@code state} ({@link AgentState#UNKNOWN} or
     * {@link AgentState#UNAUTHORIZED}) unless a fresh sample still vouches for it: stale metrics are never
     * used, but one slow answer from a busy node changes nothing. The node stays in selection either
     * way. The silence is logged once, after one expiry period (a node that was just added gets that long
     * to answer first); a refusal was already logged.
     */
    void agentUnreachable(VirtualCluster cluster, NodeState node, String why, AgentState state) {
        AgentStats nodeStats = stats.computeIfAbsent(node, n -> new AgentStats());
        nodeStats.pollFailed(why);
        boolean changed = state == AgentState.UNAUTHORIZED ? node.agentUnauthorized(why) : node.agentSilent(why);
        if (changed) {
            refresher.markDirty(cluster); // the picker still holds the expired sample's figures
        }
        if (nodeStats.schedule().pollFailed(System.nanoTime(), cluster.config().agentExpiryMsOrDefault())
                && state != AgentState.UNAUTHORIZED) {
            log.warn("cluster {}: agent of node {} at {}:{}{} cannot be read ({}); the node stays in selection,"
                    + " {} treats it as unknown (see docs/policies.md), and the agent is re-probed after 1 s,"
                    + " backing off to every {} ms", cluster.name(), node.name(), node.address().getHostString(),
                    node.address().getPort(), node.agentPath(), why, cluster.policy().id(),
                    cluster.config().agentReprobeMsOrDefault());
        }
    }

    private static void malformed(VirtualCluster cluster, NodeState node, AgentStats nodeStats, String what, String why) {
        nodeStats.malformedReport(why);
        if (nodeStats.shouldLogMalformed(System.currentTimeMillis())) {
            log.warn("cluster {}: ignored a malformed {} from node {}: {} ({} ignored so far; logged at most once a minute)",
                    cluster.name(), what, node.name(), why, nodeStats.malformedReports());
        }
    }
}
