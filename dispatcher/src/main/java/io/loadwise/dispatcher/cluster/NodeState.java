package io.loadwise.dispatcher.cluster;

import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.metrics.TrafficCounters;
import io.loadwise.dispatcher.net.NodeAddress;
import io.loadwise.policy.AgentSample;
import io.loadwise.policy.NodeCounters;
import io.loadwise.policy.NodeView;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * Runtime state of one virtual cluster node: what policies read ({@link NodeView}) plus the dispatcher's
 * own bookkeeping. One instance lives as long as the node stays in its cluster's configuration, across
 * policy switches and picker rebuilds, so counters survive them.
 *
 * <p>Written by event loops (counters, piggybacked agent samples), the node monitor (polled agent samples,
 * agent state) and the control API (enabled, draining, weight); every field is atomic or volatile.
 *
 * <p>Connect failures, failed active health checks, outlier ejection and the wait for its application
 * ({@link #awaitingReadiness()}) take a node out of selection ({@link #healthy()}). Its agent's state
 * ({@link #agentState()}) does not: a node whose agent is silent is unknown to the agent-driven policies, which
 * apply their fallback for it.
 */
public final class NodeState implements NodeView {

    private static final String NO_SAMPLE_YET = "no sample yet";
    /** {@link #exclusions} bit: the active health check says the node is down. */
    private static final int HEALTH_DOWN = 1;
    /** {@link #exclusions} bit: outlier detection ejected the node. */
    private static final int EJECTED = 2;
    /** {@link #exclusions} bit: the node came back from connect failures and its application has not answered yet. */
    private static final int NOT_READY = 4;
    private static final VarHandle EXCLUSIONS;

    static {
        try {
            EXCLUSIONS = MethodHandles.lookup().findVarHandle(NodeState.class, "exclusions", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int index;
    private final String name;
    private final InetSocketAddress address;
    private final String route;
    private final String agentPath;
    private final LongSupplier nanoClock;
    private final long agentExpiryNanos;
    /** HTTP requests in flight at most ({@code maxConnections}); 0: no limit, and {@link #admissions} stays 0. */
    private final int maxConnections;
    /** Requests admitted and not yet ended, counted only when {@link #maxConnections} is set. */
    private final AtomicInteger admissions = new AtomicInteger();

    private volatile int weight;
    private volatile boolean enabled;
    private volatile boolean draining;
    /** Connect failures mark the node down until this instant (nanoClock); 0 = up. */
    private volatile long connectDownUntilNanos;
    /**
     * Why the node is out beyond connect failures, one bit per cause ({@link #HEALTH_DOWN}, {@link #EJECTED}),
     * so that {@link #healthy()} stays one volatile read ahead of the clock. Written off the event loops,
     * except an ejection, which is rare.
     */
    private volatile int exclusions;
    private volatile HealthReport health = HealthReport.NOT_CHECKED;
    /** Wall-clock end of the current ejection, 0 when the node is not ejected; for display. */
    private volatile long ejectedUntilMillis;
    /**
     * Whether a connect failure also holds the node out until its application answers ({@link #awaitingReadiness}):
     * set by the node monitor once the node has something that can say so (an agent that answered, a health check).
     */
    private volatile boolean readinessGated;
    /** Told when the node goes down and comes back (the node monitor re-probes it); {@code null} = nobody. */
    private volatile ReachabilityListener reachabilityListener;
    /** What the cluster's {@link PriorityGroups} decided at the latest picker rebuild; read by {@link #usable()}. */
    private volatile GroupGate gate = GroupGate.ACTIVE;
    private volatile AgentSample agentSample;
    /** nanoClock time the latest good sample arrived; meaningful only when {@link #agentSample} is set. */
    private volatile long agentSampleReceivedNanos;
    /** The node monitor's last conclusion about the agent; {@link #agentState()} adds sample expiry. */
    private final AtomicReference<AgentState> agentState = new AtomicReference<>(AgentState.UNKNOWN);
    private volatile String agentProblem = NO_SAMPLE_YET;

    /** What policies count: work assigned, requests in flight, response times (shared with the simulator). */
    private final NodeCounters live = new NodeCounters();
    private final TrafficCounters counters = new TrafficCounters();

    public NodeState(int index, NodeConfig config, String defaultAgentPath, long agentExpiryMillis,
            LongSupplier nanoClock) {
        this.index = index;
        this.name = config.name();
        this.address = NodeAddress.parse(config.address());
        this.route = config.route();
        this.agentPath = config.agentPath() != null ? config.agentPath() : defaultAgentPath;
        this.weight = config.weightOrDefault();
        this.enabled = config.enabledOrDefault();
        this.agentExpiryNanos = agentExpiryMillis * 1_000_000L;
        this.nanoClock = nanoClock;
        this.maxConnections = config.maxConnectionsOrDefault();
    }

    @Override
    public int index() {
        return index;
    }

    @Override
    public String name() {
        return name;
    }

    public InetSocketAddress address() {
        return address;
    }

    /** Session route carried in JSESSIONID, or {@code null}. */
    public String route() {
        return route;
    }

    public String agentPath() {
        return agentPath;
    }

    @Override
    public int weight() {
        return weight;
    }

    /** Changes the weight; the caller ({@link VirtualCluster}) rebuilds the picker. */
    void setWeight(int weight) {
        this.weight = weight;
    }

    @Override
    public boolean enabled() {
        return enabled && !draining;
    }

    public boolean configuredEnabled() {
        return enabled;
    }

    void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /** Draining: takes no new work, finishes what it has. */
    public boolean draining() {
        return draining;
    }

    void setDraining(boolean draining) {
        this.draining = draining;
    }

    /**
     * No connect failure, failed health check, ejection or wait for its application holds the node out. A
     * silent agent does not count (see {@link #agentState()}).
     */
    @Override
    public boolean healthy() {
        return exclusions == 0 && nanoClock.getAsLong() - connectDownUntilNanos >= 0;
    }

    /** What the active health check last concluded, {@link HealthReport#NOT_CHECKED} without checks. */
    public HealthReport health() {
        return health;
    }

    /**
     * The health checker's verdict: a {@link HealthState#DOWN} node leaves selection; the caller
     * ({@code health.HealthChecker}) rebuilds the picker when the state changed.
     */
    public void setHealth(HealthReport report) {
        this.health = report;
        setExclusion(HEALTH_DOWN, report.state() == HealthState.DOWN);
    }

    /**
     * What a picker may return, given its priority group: in an active group, enabled and healthy; in a group
     * that panics, enabled and accepting connections (no recent connect failure), whatever the health checks,
     * outlier detection and the readiness hold say; in a group on standby, never. Every policy reads this
     * (through {@link #selectable()}), so none needs to know about groups.
     */
    @Override
    public boolean usable() {
        GroupGate g = gate;
        return g == GroupGate.ACTIVE ? inService() : g == GroupGate.PANIC && enabled() && !connectDown();
    }

    /** Enabled, not draining and healthy, whatever its priority group: what {@link PriorityGroups} counts. */
    public boolean inService() {
        return enabled() && healthy();
    }

    /**
     * Whether work already tied to this node (an affinity pin, a bound client connection) may go on to it: it
     * is usable, or in service in a group on standby. As HAProxy serves persistent sessions on a backup
     * server, a session that moved to the backups while the primaries were down stays there.
     */
    public boolean keepsPinnedWork() {
        return usable() || inService();
    }

    /** The priority groups' verdict for this node; only the cluster sets it, when it rebuilds its picker. */
    void setGate(GroupGate gate) {
        this.gate = gate;
    }

    public GroupGate gate() {
        return gate;
    }

    /** Whether outlier detection holds the node out now. */
    public boolean ejected() {
        return (exclusions & EJECTED) != 0;
    }

    /** Wall-clock end of the current ejection in epoch milliseconds, 0 when the node is not ejected. */
    public long ejectedUntilMillis() {
        return ejectedUntilMillis;
    }

    /** Outlier detection ejects the node until {@code untilMillis} (wall clock, for display) or readmits it (0). */
    public void setEjected(boolean ejected, long untilMillis) {
        this.ejectedUntilMillis = ejected ? untilMillis : 0;
        setExclusion(EJECTED, ejected);
    }

    private void setExclusion(int bit, boolean on) {
        int now;
        int next;
        do {
            now = exclusions;
            next = on ? now | bit : now & ~bit;
        } while (next != now && !EXCLUSIONS.compareAndSet(this, now, next));
    }

    /** True while a connect failure keeps this node out; cleared when the retry interval has passed. */
    public boolean connectDown() {
        return nanoClock.getAsLong() - connectDownUntilNanos < 0;
    }

    /**
     * A connect to this node failed: keep it out of selection for {@code retryMillis}, and, when the node is
     * {@linkplain #setReadinessGated gated}, until its application answers ({@link #markReady}), whatever the
     * time: a server that accepts connections again may not serve its application yet.
     */
    public void markConnectFailure(long retryMillis) {
        boolean wasDown = connectDown();
        connectDownUntilNanos = nanoClock.getAsLong() + retryMillis * 1_000_000L;
        if (readinessGated) {
            setExclusion(NOT_READY, true);
        }
        ReachabilityListener listener = reachabilityListener;
        if (!wasDown && listener != null) {
            listener.reachabilityChanged(this, false);
        }
    }

    /**
     * A connect succeeded (the proxy's, or the node monitor's probe got an answer): the node is back in
     * selection at once. The first success after a failure is reported to the listener.
     */
    public void markConnectSuccess() {
        if (connectDownUntilNanos != 0) {
            connectDownUntilNanos = 0;
            ReachabilityListener listener = reachabilityListener;
            if (listener != null) {
                listener.reachabilityChanged(this, true);
            }
        }
    }

    /**
     * Whether the node is out until its application answers: it came back from connect failures (or its agent
     * stopped answering 200) and no readiness probe has passed since. A connect that succeeds does not end it.
     */
    public boolean awaitingReadiness() {
        return (exclusions & NOT_READY) != 0;
    }

    /**
     * Holds the node out until its application answers ({@link #markReady}), also when no connect failed: its
     * agent, which answered before, now says the application is not deployed.
     *
     * @return whether this took the node out (it was not held out already)
     */
    public boolean holdUntilReady() {
        if (awaitingReadiness()) {
            return false;
        }
        setExclusion(NOT_READY, true);
        return true;
    }

    /**
     * Its application answered (the agent with 200 or 401, or a passing health check): the readiness hold and
     * any connect hold-out end, and the node is back in selection.
     *
     * @return whether the node was held out until ready
     */
    public boolean markReady() {
        boolean wasHeld = awaitingReadiness();
        setExclusion(NOT_READY, false);
        markConnectSuccess();
        return wasHeld;
    }

    /** From now on connect failures also hold the node out until it is ready ({@link #markConnectFailure}). */
    public void setReadinessGated(boolean gated) {
        this.readinessGated = gated;
    }

    public boolean readinessGated() {
        return readinessGated;
    }

    /** Replaces the listener told of connect failures and recoveries; {@code null} removes it. */
    public void setReachabilityListener(ReachabilityListener listener) {
        this.reachabilityListener = listener;
    }

    /** Told, on the thread that saw it (often an event loop, so it must only hand over), of reachability changes. */
    @FunctionalInterface
    public interface ReachabilityListener {
        /**
         * @param reachable {@code false} when a connect failure took the node out, {@code true} when the
         *     first connect after failures succeeded
         */
        void reachabilityChanged(NodeState node, boolean reachable);
    }

    @Override
    public int activeConnections() {
        return live.activeConnections();
    }

    /** Below {@code maxConnections} (always, without a limit); read by every pick. */
    @Override
    public boolean admitted() {
        return maxConnections == 0 || admissions.get() < maxConnections;
    }

    /** The configured limit of requests in flight; 0: none. */
    public int maxConnections() {
        return maxConnections;
    }

    /** Requests admitted under {@code maxConnections} and not yet ended (0 without a limit). */
    public int admissions() {
        return admissions.get();
    }

    /**
     * Takes one of the node's {@code maxConnections} slots for a request, or returns {@code false} when
     * another event loop took the last one since the pick saw it free. Pair each {@code true} with one
     * {@link #leave()}.
     */
    public boolean tryAdmit() {
        if (maxConnections == 0) {
            return true;
        }
        int now;
        do {
            now = admissions.get();
            if (now >= maxConnections) {
                return false;
            }
        } while (!admissions.compareAndSet(now, now + 1));
        return true;
    }

    /** Gives an admitted request's slot back; returns whether a slot was freed (the node has a limit). */
    public boolean leave() {
        if (maxConnections == 0) {
            return false;
        }
        admissions.decrementAndGet();
        return true;
    }

    /** Work assigned to this node started (tunnel opened, connection bound or request sent). */
    public void assignmentStarted() {
        live.assignmentStarted();
    }

    public void assignmentEnded() {
        live.assignmentEnded();
    }

    @Override
    public int inFlightRequests() {
        return live.inFlightRequests();
    }

    public void requestSent() {
        live.requestSent();
    }

    /**
     * An exchange sent to this node failed without its response (refused, reset, timed out), or it answered
     * with what counts as a failure ({@link FailedAnswers}): counted for {@link #recentFailures()}. The caller
     * still ends the request ({@link #requestEnded}).
     */
    public void requestFailed() {
        live.requestFailed(nanoClock.getAsLong());
    }

    @Override
    public int recentFailures() {
        return live.recentFailures(nanoClock.getAsLong());
    }

    /** The response is complete (or the request failed); {@code runningNanos} &lt; 0 records no time. */
    public void requestEnded(long runningNanos) {
        live.requestEnded(nanoClock.getAsLong(), runningNanos);
    }

    @Override
    public double recentResponseTimeMillis() {
        return live.recentResponseTimeMillis(nanoClock.getAsLong());
    }

    @Override
    public double peakEwmaResponseMillis() {
        return live.peakEwmaResponseMillis(nanoClock.getAsLong());
    }

    @Override
    public AgentSample agentSample() {
        AgentSample sample = agentSample;
        return sample != null && fresh(nanoClock.getAsLong()) ? sample : null;
    }

    private boolean fresh(long nowNanos) {
        return agentSample != null && nowNanos - agentSampleReceivedNanos <= agentExpiryNanos;
    }

    /** The latest sample whatever its age, or {@code null}; for display. */
    public AgentSample latestAgentSample() {
        return agentSample;
    }

    /** Age of the latest (last good) sample in milliseconds, or -1 when there is none. */
    public long agentSampleAgeMillis() {
        return agentSample == null ? -1 : (nanoClock.getAsLong() - agentSampleReceivedNanos) / 1_000_000L;
    }

    /**
     * The agent's state now: {@link AgentState#OK} while the latest sample is fresh, otherwise what the
     * node monitor concluded ({@link AgentState#UNKNOWN} or {@link AgentState#UNAUTHORIZED}), and
     * {@link AgentState#UNKNOWN} once an OK agent's sample has expired.
     */
    public AgentState agentState() {
        if (fresh(nanoClock.getAsLong())) {
            return AgentState.OK;
        }
        AgentState concluded = agentState.get();
        return concluded == AgentState.OK ? AgentState.UNKNOWN : concluded;
    }

    /** Why the agent is not OK, for operators (e.g. "agent answered HTTP 404"), or {@code null} when it is. */
    public String agentProblem() {
        if (fresh(nanoClock.getAsLong())) {
            return null;
        }
        return agentState.get() == AgentState.OK
                ? "no sample for more than " + agentExpiryNanos / 1_000_000L + " ms" : agentProblem;
    }

    /** True while the agent is not OK; kept for the {@code agentDown} API fields. It excludes nothing. */
    public boolean agentDown() {
        return agentState() != AgentState.OK;
    }

    /** A good sample arrived, polled or piggybacked: a sign of life that makes the agent OK at once. */
    public void updateAgentSample(AgentSample sample) {
        this.agentSampleReceivedNanos = nanoClock.getAsLong();
        this.agentSample = sample;
        if (agentState.get() != AgentState.OK) { // piggybacks call this per response: write only on change
            agentState.set(AgentState.OK);
        }
    }

    /**
     * A poll of the agent failed ({@code problem} says how). While a fresh sample still vouches for the
     * agent nothing changes: one slow answer from a busy node is no reason to stop judging it. Otherwise
     * the agent is {@link AgentState#UNKNOWN}.
     *
     * @return whether this changed the state from OK, so the picker must be rebuilt without the sample
     */
    public boolean agentSilent(String problem) {
        return agentFailed(AgentState.UNKNOWN, problem);
    }

    /**
     * A poll was refused with 401: the agent wants a secret the dispatcher did not send, or another one.
     * As for {@link #agentSilent}, a fresh sample (piggybacked) still vouches for the agent; otherwise it
     * is {@link AgentState#UNAUTHORIZED}, which the policies treat as unknown.
     *
     * @return whether this changed the state from OK
     */
    public boolean agentUnauthorized(String problem) {
        return agentFailed(AgentState.UNAUTHORIZED, problem);
    }

    private boolean agentFailed(AgentState state, String problem) {
        if (fresh(nanoClock.getAsLong())) {
            return false;
        }
        agentProblem = problem;
        return agentState.getAndSet(state) == AgentState.OK;
    }

    /** Table 2 counters for this node (Table 6 adds selections). */
    public TrafficCounters counters() {
        return counters;
    }

    @Override
    public String toString() {
        return name + "@" + address.getHostString() + ":" + address.getPort();
    }
}
