package io.loadwise.dispatcher.cluster;

import io.loadwise.dispatcher.config.DrainMode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.metrics.TrafficCounters;
import io.loadwise.dispatcher.net.NodeAddress;
import io.loadwise.policy.AgentSample;
import io.loadwise.policy.NodeCounters;
import io.loadwise.policy.NodeView;
import java.net.InetSocketAddress;
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

    private final int index;
    private final String name;
    private final InetSocketAddress address;
    private final String route;
    private final String agentPath;
    private final LongSupplier nanoClock;
    /** Requests in flight under {@code maxConnections}. */
    private final Admissions admissions;

    private volatile int weight;
    private volatile boolean enabled;
    private final NodeDrain drain = new NodeDrain();
    /** What the cluster's {@link PriorityGroups} decided at the latest picker rebuild; read by {@link #usable()}. */
    private volatile GroupGate gate = GroupGate.ACTIVE;
    /** Its agent's latest sample and state. */
    private final AgentReadings agent;
    /** Connect failures, health check, ejection, readiness: what holds it out. */
    private final Availability availability;

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
        this.agent = new AgentReadings(agentExpiryMillis, nanoClock);
        this.availability = new Availability(this, nanoClock);
        this.nanoClock = nanoClock;
        this.admissions = new Admissions(config.maxConnectionsOrDefault());
        setDrain(config.drainOrDefault(), 0, NodeConfig.DEFAULT_SESSION_IDLE_MS);
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
        return enabled && drain.mode() == DrainMode.NONE;
    }

    public boolean configuredEnabled() {
        return enabled;
    }

    void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /** Draining, in either mode: takes no new session and no unpinned request, finishes what it has. */
    public boolean draining() {
        return drain.mode() != DrainMode.NONE;
    }

    public DrainMode drainMode() {
        return drain.mode();
    }

    void setDraining(boolean draining) {
        setDrain(draining ? DrainMode.IMMEDIATE : DrainMode.NONE, 0, 0);
    }

    /** Starts, switches or ends a drain ({@link NodeDrain#set}); the caller rebuilds the picker. */
    DrainMode setDrain(DrainMode mode, long deadlineMs, long sessionIdleMs) {
        return drain.set(mode, deadlineMs, sessionIdleMs, nanoClock.getAsLong());
    }

    /** Takes over {@code previous}'s agent readings, and its drain when {@code drainToo} ({@link NodeHandover}). */
    void adopt(NodeState previous, boolean drainToo) {
        agent.adopt(previous.agent);
        if (drainToo) {
            drain.adopt(previous.drain);
        }
    }

    /** How the drain stands ({@link NodeDrain#progress}), or {@code null} when the node is not draining. */
    public DrainProgress drainProgress() {
        boolean idle = live.inFlightRequests() == 0 && live.activeConnections() == 0;
        return drain.progress(nanoClock.getAsLong(), agent.freshSample(), idle, live.inFlightRequests());
    }

    /** Nothing holds it out (connect failure, health check, ejection, readiness); a silent agent does not. */
    @Override
    public boolean healthy() {
        return availability.healthy();
    }

    /** What the active health check last concluded, {@link HealthReport#NOT_CHECKED} without checks. */
    public HealthReport health() {
        return availability.health();
    }

    /** The health checker's verdict: DOWN leaves selection; the caller rebuilds the picker on a change. */
    public void setHealth(HealthReport report) {
        availability.setHealth(report);
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
     * server, a session that moved to the backups while the primaries were down stays there. A node under
     * {@code "drain": "sessions"} keeps its pinned work until its sessions are gone ({@link SessionDrain}).
     */
    public boolean keepsPinnedWork() {
        return usable() || inService() || pinnedWhileDraining();
    }

    /** A session drain lets pinned work through while enabled and healthy; it counts the arrival. */
    private boolean pinnedWhileDraining() {
        return enabled && healthy() && drain.admitsPinned(nanoClock.getAsLong(), agent.freshSample());
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
        return availability.ejected();
    }

    /** Wall-clock end of the current ejection in epoch milliseconds, 0 when the node is not ejected. */
    public long ejectedUntilMillis() {
        return availability.ejectedUntilMillis();
    }

    /** Outlier detection ejects the node until {@code untilMillis} (wall clock, for display) or readmits it (0). */
    public void setEjected(boolean ejected, long untilMillis) {
        availability.setEjected(ejected, untilMillis);
    }

    /** True while a connect failure keeps this node out; cleared when the retry interval has passed. */
    public boolean connectDown() {
        return availability.connectDown();
    }

    /** A connect to this node failed: out for {@code retryMillis}, and when gated until ready ({@link Availability}). */
    public void markConnectFailure(long retryMillis) {
        availability.markConnectFailure(retryMillis);
    }

    /** A connect succeeded: back in selection at once ({@link Availability}). */
    public void markConnectSuccess() {
        availability.markConnectSuccess();
    }

    /** Whether the node is out until its application answers ({@link Availability}). */
    public boolean awaitingReadiness() {
        return availability.awaitingReadiness();
    }

    /** Holds the node out until its application answers; whether it took it out ({@link Availability}). */
    public boolean holdUntilReady() {
        return availability.holdUntilReady();
    }

    /** Its application answered: every hold ends; whether it was held until ready ({@link Availability}). */
    public boolean markReady() {
        return availability.markReady();
    }

    /** From now on connect failures also hold the node out until it is ready ({@link #markConnectFailure}). */
    public void setReadinessGated(boolean gated) {
        availability.setReadinessGated(gated);
    }

    public boolean readinessGated() {
        return availability.readinessGated();
    }

    /** Replaces the listener told of connect failures and recoveries; {@code null} removes it. */
    public void setReachabilityListener(ReachabilityListener listener) {
        availability.setReachabilityListener(listener);
    }

    @Override
    public int activeConnections() {
        return live.activeConnections();
    }

    /** Below {@code maxConnections} (always, without a limit); read by every pick. */
    @Override
    public boolean admitted() {
        return admissions.admitted();
    }

    /** The configured limit of requests in flight; 0: none. */
    public int maxConnections() {
        return admissions.limit();
    }

    /** Requests admitted under {@code maxConnections} and not yet ended (0 without a limit). */
    public int admissions() {
        return admissions.count();
    }

    /**
     * Takes one of the node's {@code maxConnections} slots for a request, or returns {@code false} when
     * another event loop took the last one since the pick saw it free. Pair each {@code true} with one
     * {@link #leave()}.
     */
    public boolean tryAdmit() {
        return admissions.tryAdmit();
    }

    /** Gives an admitted request's slot back; returns whether a slot was freed (the node has a limit). */
    public boolean leave() {
        return admissions.leave();
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

    /** The agent's latest sample while it is fresh ({@code agentExpiryMs}), else {@code null}. */
    @Override
    public AgentSample agentSample() {
        return agent.freshSample();
    }

    /** The latest sample whatever its age, or {@code null}; for display. */
    public AgentSample latestAgentSample() {
        return agent.latest();
    }

    /** Age of the latest (last good) sample in milliseconds, or -1 when there is none. */
    public long agentSampleAgeMillis() {
        return agent.ageMillis();
    }

    /**
     * The agent's state now: {@link AgentState#OK} while the latest sample is fresh, otherwise what the
     * node monitor concluded ({@link AgentState#UNKNOWN} or {@link AgentState#UNAUTHORIZED}), and
     * {@link AgentState#UNKNOWN} once an OK agent's sample has expired.
     */
    public AgentState agentState() {
        return agent.state();
    }

    /** Why the agent is not OK, for operators (e.g. "agent answered HTTP 404"), or {@code null} when it is. */
    public String agentProblem() {
        return agent.problem();
    }

    /** A good sample arrived, polled or piggybacked: a sign of life that makes the agent OK at once. */
    public void updateAgentSample(AgentSample sample) {
        agent.update(sample);
    }

    /** A poll of the agent failed: {@link AgentState#UNKNOWN} unless a fresh sample vouches; whether it was OK. */
    public boolean agentSilent(String problem) {
        return agent.failed(AgentState.UNKNOWN, problem);
    }

    /** A poll was refused with 401 (a secret missing or wrong): {@link AgentState#UNAUTHORIZED}, as {@link #agentSilent}. */
    public boolean agentUnauthorized(String problem) {
        return agent.failed(AgentState.UNAUTHORIZED, problem);
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
