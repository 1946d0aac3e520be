package io.loadwise.dispatcher.monitor;

import io.loadwise.dispatcher.cluster.AgentState;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.AgentSettings;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.HealthCheckConfig;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.policy.AgentSample;
import io.loadwise.policy.PolicyInput;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node monitoring service (TAPR-04a): keeps every node's {@link AgentSample} fresh for clusters whose
 * policy reads agent metrics, and probes nodes that connect failures hold out so they come back quickly.
 *
 * <p>Two sources feed it. The HTTP proxy hands over every {@code endpoint-load-metrics} header it strips
 * from a response ({@link #acceptLoadReport}); and each node's agent endpoint is polled every
 * {@code agentPollIntervalMs} (TAPR-04b) with the JDK's asynchronous HTTP client, so no thread waits on
 * a slow agent. Every poll carries the cluster's agent secret ({@code agent.secret}, or
 * {@code LOADWISE_AGENT_SECRET} for every cluster) in {@value AgentSettings#SECRET_HEADER}, the header the
 * agent checks.
 *
 * <p>An agent that gives no good sample for longer than {@code agentExpiryMs} (unreachable, an error
 * status, an unreadable document) is {@link AgentState#UNKNOWN}, or {@link AgentState#UNAUTHORIZED} when
 * it refused the poll with 401; it is logged once and re-probed with a back-off from 1 s up to
 * {@code agentReprobeMs} ({@link ReprobeSchedule}). Its node stays in selection either way, where the
 * agent-driven policies apply their fallback for it. Any sign of life, a good sample polled or
 * piggybacked or the first successful connect after connect failures, makes it {@link AgentState#OK}
 * again or polls it at once, and ends the back-off.
 *
 * <p>A node that connect failures hold out ({@link NodeState#connectDown()}) is probed every second under
 * every policy, and an answer that says its application serves readmits it at once ({@link Readiness}): that
 * is how a restarted node is back in selection within about a second, rather than after {@code unhealthyRetryMs}.
 * Once the node is gated (an agent answered on it, or its cluster has a health check) a connect failure holds
 * it out until that answer comes, whatever the time ({@link NodeState#awaitingReadiness()}): only its agent
 * answering 200 (or its own 401), or a passing health check, readmits it; a server that accepts connections
 * and answers 404 or 503 while its application deploys stays out and is asked again a second later. An agent
 * that answered 200 and then answers 404 or 503, or refuses the poll's connection, holds its node out the same
 * way: polled under an agent-driven policy, or asked at once under any policy when the node answers a client
 * 404 on a path another node serves ({@link #suspect}).
 *
 * <p>Everything here runs on one scheduler thread or the HTTP client's threads; pickers are rebuilt by
 * {@link RefreshCoalescer}, never on an event loop.
 */
public final class NodeMonitor implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(NodeMonitor.class);
    private static final long REFRESH_PERIOD_MILLIS = 100;
    /** Poll chain ids, unique over all nodes and clusters: a stale chain never matches a new one. */
    private static final AtomicLong CHAINS = new AtomicLong();

    private final ScheduledExecutorService scheduler;
    private final HttpClient http;
    private final RefreshCoalescer refresher;
    /** {@code LOADWISE_AGENT_SECRET}, which wins over every cluster's {@code agent.secret}; or {@code null}. */
    private final String secretFromEnv;
    private final Map<NodeState, AgentStats> stats = new ConcurrentHashMap<>();
    private final Map<VirtualCluster, Boolean> watched = new ConcurrentHashMap<>();
    /** When each watched cluster whose policy has a rebuild period was last marked for it (System.nanoTime). */
    private final Map<VirtualCluster, Long> lastTimedRebuild = new ConcurrentHashMap<>();
    /** The latest unparsed report per node, waiting for the monitor thread; bounded by the node count. */
    private final Map<NodeState, PendingReport> pendingReports = new ConcurrentHashMap<>();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final AgentAnswers answers;

    /** A monitor with the process environment's {@code LOADWISE_AGENT_SECRET}. */
    public NodeMonitor() {
        this(System.getenv());
    }

    /**
     * @param env the environment ({@value AgentSettings#SECRET_ENV}); a map so tests can pass their own
     * @throws IllegalArgumentException when {@value AgentSettings#SECRET_ENV} is set to something that
     *     cannot be sent (the command line reports it earlier, with the configuration's problems)
     */
    public NodeMonitor(Map<String, String> env) {
        try {
            this.secretFromEnv = AgentSettings.secretFromEnv(env);
        } catch (ConfigValidationException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
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
        this.answers = new AgentAnswers(stats, refresher);
        scheduler.scheduleWithFixedDelay(this::timedRebuilds, REFRESH_PERIOD_MILLIS, REFRESH_PERIOD_MILLIS,
                TimeUnit.MILLISECONDS);
    }

    /**
     * Marks a watched cluster for a rebuild when its policy asks to be rebuilt every so often
     * ({@link io.loadwise.policy.LoadBalancingPolicy#rebuildPeriodMillis}: orca-wrr's weight update period) and
     * that long has passed since the last such mark: a weight that leaves its blackout or expires while no
     * sample arrives, as when every agent of the cluster has gone silent, then takes effect all the same.
     */
    private void timedRebuilds() {
        long now = System.nanoTime();
        for (VirtualCluster cluster : watched.keySet()) {
            try {
                long period = cluster.policy().rebuildPeriodMillis(cluster.policyOptions());
                if (period <= 0) {
                    lastTimedRebuild.remove(cluster);
                    continue;
                }
                Long last = lastTimedRebuild.putIfAbsent(cluster, now);
                if (last != null && now - last >= period * 1_000_000L) {
                    lastTimedRebuild.put(cluster, now);
                    refresher.markDirty(cluster);
                }
            } catch (RuntimeException e) { // a third-party policy's bug must not end the task for every cluster
                log.warn("cluster {}: the {} policy's rebuild period failed: {}", cluster.name(),
                        cluster.policy().id(), e.toString());
            }
        }
    }

    /** Starts polling the cluster's agents (each poll first checks the policy still wants metrics). */
    public void watch(VirtualCluster cluster) {
        if (watched.putIfAbsent(cluster, Boolean.TRUE) != null) {
            return;
        }
        cluster.setRefresher(refresher::markDirty);
        cluster.setSuspicionSink(node -> suspect(cluster, node));
        for (NodeState node : cluster.nodes()) {
            AgentStats nodeStats = stats.computeIfAbsent(node, n -> new AgentStats());
            node.setReadinessGated(hasHealthCheck(cluster, node) || nodeStats.agentAnswered());
            node.setReachabilityListener((n, reachable) -> reachabilityChanged(cluster, n, reachable));
            startChain(cluster, node, 0);
        }
    }

    /** Stops polling a cluster (it was deleted or replaced). */
    public void unwatch(VirtualCluster cluster) {
        watched.remove(cluster);
        lastTimedRebuild.remove(cluster);
        cluster.setSuspicionSink(null);
        for (NodeState node : cluster.nodes()) {
            node.setReachabilityListener(null);
            stats.remove(node);
        }
    }

    /** Agent statistics of a node, or {@code null} when it is not monitored. */
    public AgentStats stats(NodeState node) {
        return stats.get(node);
    }

    /** The secret sent to this cluster's agents: the environment's, else the cluster's, else none. */
    String secretFor(VirtualCluster cluster) {
        return secretFromEnv != null ? secretFromEnv : AgentSettings.secretOf(cluster.config());
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
     * stores and returns; the picker is rebuilt later ({@link AgentAnswers#loadReport}). A silent agent that
     * reports again is polled at once for its full sample.
     */
    public void acceptLoadReport(VirtualCluster cluster, NodeState node, String headerValue) {
        if (answers.loadReport(cluster, node, headerValue) && watched.containsKey(cluster)) {
            startChain(cluster, node, 0); // its re-probe may be a minute away: fetch the full sample now
        }
    }

    /**
     * Called by the node (often on an event loop: hands over only). Connect failures took it out: probe it
     * every second from now on. The first connect after them succeeded: that is a sign of life, so the
     * agent is polled at once and its back-off ends.
     */
    private void reachabilityChanged(VirtualCluster cluster, NodeState node, boolean reachable) {
        try {
            scheduler.execute(() -> {
                AgentStats nodeStats = stats.get(node);
                if (nodeStats == null || !watched.containsKey(cluster)) {
                    return;
                }
                if (reachable) {
                    if (nodeStats.schedule().signOfLife(System.nanoTime())) {
                        log.info("cluster {}: node {} is reachable again; its agent is polled now",
                                cluster.name(), node.name());
                        startChain(cluster, node, 0);
                    }
                } else if (nodeStats.silent()) {
                    // The next back-off step may be far off; held out, the node is probed every second.
                    startChain(cluster, node, Math.min(ReprobeSchedule.FIRST_REPROBE_MILLIS,
                            cluster.config().agentReprobeMsOrDefault()));
                }
            });
        } catch (RejectedExecutionException e) {
            // closed: nothing is monitored any more
        }
    }

    /**
     * Called on an event loop (hands over only): the node answered 404 on a path another node serves. If an agent
     * has answered on it, the agent is asked now, under every policy, at most once a second: a 404 or 503 there
     * means the application is gone and holds the node out until it is ready ({@link AgentAnswers#judgeReadiness}).
     */
    private void suspect(VirtualCluster cluster, NodeState node) {
        AgentStats nodeStats = stats.get(node);
        if (nodeStats == null || !nodeStats.agentAnswered() || !nodeStats.claimSuspicionProbe(System.nanoTime())) {
            return;
        }
        try {
            scheduler.execute(() -> {
                if (watched.containsKey(cluster) && !AgentAnswers.heldOut(node)) {
                    nodeStats.requestProbe();
                    startChain(cluster, node, 0);
                }
            });
        } catch (RejectedExecutionException e) {
            // closed: nothing is monitored any more
        }
    }

    /** Starts a new poll chain for {@code node} after {@code delayMillis}; any other chain of it stops. */
    private void startChain(VirtualCluster cluster, NodeState node, long delayMillis) {
        AgentStats nodeStats = stats.get(node);
        if (nodeStats == null) {
            return;
        }
        long chain = CHAINS.incrementAndGet();
        nodeStats.schedule().startChain(chain);
        schedule(cluster, node, chain, delayMillis);
    }

    private void schedule(VirtualCluster cluster, NodeState node, long chain, long delayMillis) {
        try {
            scheduler.schedule(() -> poll(cluster, node, chain), delayMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // closed
        }
    }

    private void poll(VirtualCluster cluster, NodeState node, long chain) {
        AgentStats nodeStats = stats.get(node);
        if (!watched.containsKey(cluster) || nodeStats == null || !nodeStats.schedule().isCurrentChain(chain)) {
            return; // unwatched, or a newer chain has taken over
        }
        long interval = cluster.config().agentPollIntervalMsOrDefault();
        // A draining node's agent is polled under any policy: its session count ends a session drain, and the
        // first report after a restart tells a rolling restart that the node is back.
        boolean agentDriven = cluster.policy().inputs().contains(PolicyInput.AGENT_METRICS) || node.draining();
        // Under other policies the agent is not polled: a node held out is probed, to readmit it, and a node
        // whose agent has not answered yet is asked once every agentReprobeMs whether it has one, so that a 404
        // after a restart can tell a deploying application from a node without an agent (Readiness).
        if (!node.configuredEnabled()) {
            schedule(cluster, node, chain, interval);
            return;
        }
        if (!agentDriven && !AgentAnswers.heldOut(node) && !nodeStats.takeProbeRequest()) {
            long now = System.nanoTime();
            if (!nodeStats.discoveryDue(now, cluster.config().agentReprobeMsOrDefault() * 1_000_000L)) {
                schedule(cluster, node, chain, interval);
                return;
            }
            nodeStats.discoveryAsked(now);
        }
        HttpRequest request;
        try {
            request = request(cluster, node, interval);
        } catch (IllegalArgumentException e) {
            // A validated configuration cannot get here; if it did, the chain must not end.
            log.error("cluster {}: cannot build the agent poll of node {}: {}", cluster.name(), node.name(),
                    e.getMessage());
            schedule(cluster, node, chain, cluster.config().agentReprobeMsOrDefault());
            return;
        }
        long start = System.nanoTime();
        http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).whenComplete((response, error) -> {
            boolean ok = false;
            try {
                if (error == null) {
                    ok = agentDriven ? answers.pollAnswered(cluster, node, response, System.nanoTime() - start) : true;
                    int status = response.statusCode();
                    if (status == 200 || status == 401) {
                        nodeStats.agentAnswered(true);
                        node.setReadinessGated(true); // from now on its agent says when the application serves
                    }
                    answers.judgeReadiness(cluster, node, status, nodeStats.agentAnswered(),
                            hasHealthCheck(cluster, node));
                } else {
                    if (AgentAnswers.refused(error) && node.readinessGated() && !AgentAnswers.heldOut(node)) {
                        // the server is gone and no client request has noticed yet: out until it is ready again
                        node.markConnectFailure(cluster.config().unhealthyRetryMsOrDefault());
                        refresher.markDirty(cluster);
                    }
                    if (agentDriven) {
                        answers.agentUnreachable(cluster, node, AgentAnswers.describe(error), AgentState.UNKNOWN);
                    }
                }
            } catch (RuntimeException e) {
                log.warn("cluster {}: handling the agent poll of node {} failed", cluster.name(), node.name(), e);
            } finally {
                // Whatever happened, keep polling: a node is never left without a next poll.
                long delay = agentDriven ? nodeStats.schedule().delayAfterPoll(ok, AgentAnswers.heldOut(node), interval,
                        cluster.config().agentReprobeMsOrDefault()) : interval;
                schedule(cluster, node, chain, delay);
            }
        });
    }

    /** Whether the node (its own, else its cluster's {@code healthCheck}) is checked actively. */
    private static boolean hasHealthCheck(VirtualCluster cluster, NodeState node) {
        HealthCheckConfig nodeLevel = null;
        for (NodeConfig n : cluster.config().nodesOrEmpty()) {
            if (n.name().equals(node.name())) {
                nodeLevel = n.healthCheck();
                break;
            }
        }
        return HealthCheckConfig.merge(cluster.config().healthCheck(), nodeLevel) != null;
    }

    private HttpRequest request(VirtualCluster cluster, NodeState node, long interval) {
        URI uri = URI.create("http://" + node.address().getHostString() + ":" + node.address().getPort()
                + node.agentPath());
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .timeout(Duration.ofMillis(Math.max(1_000, interval)))
                .header("Accept", "application/json")
                .GET();
        String secret = secretFor(cluster);
        if (secret != null) {
            request.header(AgentSettings.SECRET_HEADER, secret);
        }
        return request.build();
    }

    @Override
    public void close() {
        watched.clear();
        lastTimedRebuild.clear();
        refresher.close();
        scheduler.shutdownNow();
    }
}
