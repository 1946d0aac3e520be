package io.loadwise.dispatcher.cluster;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.DrainMode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.metrics.TrafficCounters;
import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyOptions;
import io.loadwise.policy.PolicyRegistry;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A virtual cluster at runtime: its nodes, its policy and the picker currently in force.
 *
 * <p>The picker is an immutable object published through a volatile field; {@link #pick} reads it once
 * and takes no lock. Every change (policy switch, node enabled/disabled/drained/reweighted, health
 * change, new agent samples) builds a new picker under the cluster's lock and publishes it. Requests in
 * flight keep the node they were given, so a switch fails none of them. A switch to an agent-driven
 * policy takes no node out either: nodes without fresh agent samples are unknown to it, and it applies
 * its fallback for them.
 *
 * <p>Each rebuild first judges the priority groups and the panic threshold ({@link PriorityGroups}) and sets
 * every node's {@link GroupGate}, so the policy sees only the active groups without knowing about them.
 */
public final class VirtualCluster {

    private static final Logger log = LoggerFactory.getLogger(VirtualCluster.class);

    private volatile Consumer<VirtualCluster> refresher;
    private volatile ClusterConfig config;
    private final List<NodeState> nodes;
    /** {@code null} for a cluster without nodes (one whose nodes all register themselves, before they do). */
    private final ClusterSnapshot snapshot;
    /** What picks in a cluster without nodes: nothing is usable. */
    private static final Picker NO_NODE = avoid -> null;
    private final TrafficCounters counters = new TrafficCounters();
    private final LongSupplier nanoClock;
    private final RequestQueue queue;
    private final RetryBudget retryBudget;
    /** What each final answer of a node does: failure counts, outlier detection, suspicion. */
    private final Answers answers;

    private volatile LoadBalancingPolicy policy;
    private volatile PolicyEnvironment environment;
    /** What picks: the policy's picker, or a {@link RampingPicker} around it while nodes ramp up. */
    private volatile Picker picker;
    /** The policy's own picker; replaced under this object's lock. */
    private Picker policyPicker;
    /** Ramp factors per node index while some node ramps up ({@link SlowStart}), else {@code null}. */
    private double[] ramp;
    private volatile SlowStart slowStart;
    /** Per-context pickers of a cluster that takes registrations ({@link #pick(NodeView, String)}), else null. */
    private volatile ContextPickers contextPickers;
    /** Per replication domain, a picker over its nodes ({@link #pickInDomain}); {@link DomainPickers#NONE} without. */
    private volatile DomainPickers domainPickers;
    /** The priority groups and panic threshold in force, and their latest verdict. */
    private final GroupGates groups;

    /**
     * @param config a validated cluster configuration
     * @param policies where the configured policy id is looked up
     */
    public VirtualCluster(ClusterConfig config, PolicyRegistry policies, LongSupplier nanoClock) {
        this.config = config;
        this.nanoClock = nanoClock;
        List<NodeState> built = new ArrayList<>();
        List<NodeConfig> nodeConfigs = config.nodesOrEmpty();
        for (int i = 0; i < nodeConfigs.size(); i++) {
            built.add(new NodeState(i, nodeConfigs.get(i), config.agentPathOrDefault(),
                    config.agentExpiryMsOrDefault(), nanoClock));
        }
        this.nodes = Collections.unmodifiableList(built);
        this.snapshot = built.isEmpty() ? null : new ClusterSnapshot(config.name(), built);
        this.queue = new RequestQueue(config.queueTimeoutMsOrDefault(), config.maxQueueOrDefault(), counters);
        this.retryBudget = new RetryBudget(config.retryBudgetPercentOrDefault());
        this.answers = new Answers(built.size());
        this.policy = policies.get(config.policy());
        this.environment = environmentFor(PolicyOptions.of(config.policyOptionsOrEmpty()));
        this.groups = new GroupGates(config);
        groups.apply(nodes, config);
        this.policyPicker = newPicker(policy, null, environment);
        this.picker = policyPicker;
        this.contextPickers = ContextPickers.of(config, nodes, policy, environment, null);
        this.domainPickers = DomainPickers.of(config, nodes, policy, environment, null);
    }

    private Picker newPicker(LoadBalancingPolicy with, Picker previous, PolicyEnvironment env) {
        return snapshot == null ? NO_NODE : with.newPicker(snapshot, previous, env);
    }

    private PolicyEnvironment environmentFor(PolicyOptions options) {
        PolicyEnvironment system = PolicyEnvironment.system(options);
        return new PolicyEnvironment(system.random(), nanoClock, options);
    }

    public String name() {
        return config.name();
    }

    public ClusterConfig config() {
        return config;
    }

    /**
     * Records a configuration change that was applied live (policy, policy options, node weights and
     * enabled flags) so that {@link #config()} shows what is in force. Anything else (mode, listen,
     * the node list itself) needs a new {@code VirtualCluster}.
     *
     * @throws IllegalArgumentException when the name or the node names differ
     */
    public void updateConfig(ClusterConfig changed) {
        List<NodeConfig> newNodes = changed.nodesOrEmpty();
        boolean sameNodes = newNodes.size() == nodes.size();
        for (int i = 0; sameNodes && i < newNodes.size(); i++) {
            sameNodes = nodes.get(i).name().equals(newNodes.get(i).name());
        }
        if (!config.name().equals(changed.name()) || !sameNodes) {
            throw new IllegalArgumentException("cluster " + name() + ": name or nodes changed; rebuild the cluster");
        }
        ClusterConfig old = this.config;
        this.config = changed;
        boolean regroup;
        synchronized (this) {
            regroup = groups.reconfigure(old, changed);
        }
        if (regroup || DomainPickers.changed(old, changed)) {
            refresh(); // priorities, minActive, the panic threshold or domains changed: judge and build again
        }
    }

    public List<NodeState> nodes() {
        return nodes;
    }

    /** The node with this name, or {@code null}. */
    public NodeState node(String name) {
        for (NodeState node : nodes) {
            if (node.name().equals(name)) {
                return node;
            }
        }
        return null;
    }

    public LoadBalancingPolicy policy() {
        return policy;
    }

    public PolicyOptions policyOptions() {
        return environment.options();
    }

    /** Cluster-wide Table 2 counters. */
    public TrafficCounters counters() {
        return counters;
    }

    /** Where HTTP requests wait for a node when every node is full or none reachable (issue 15, item 4). */
    public RequestQueue queue() {
        return queue;
    }

    /** How many retries may be in progress (issue 15, item 5). */
    public RetryBudget retryBudget() {
        return retryBudget;
    }

    /**
     * Chooses a node for one connection or request, recording WT1 and the selection. Returns
     * {@code null} when no node is usable, and always in a cluster that routes by context (it needs the
     * request target: {@link #pick(NodeView, String)}).
     */
    public NodeState pick(NodeView avoid) {
        if (contextPickers != null) {
            // A cluster that routes by context must know the target: a pick without one finds nothing rather
            // than a node of another context (every HTTP pick site names it, see pick(NodeView, String)).
            return null;
        }
        return pickAny(avoid);
    }

    private NodeState pickAny(NodeView avoid) {
        long start = nanoClock.getAsLong();
        NodeView chosen = picker.pick(avoid);
        return counted(chosen == null ? null : nodes.get(chosen.index()), start);
    }

    /** Records WT1 and the selection of {@code node} (nothing for none), picked since {@code start}. */
    private NodeState counted(NodeState node, long start) {
        if (node != null) {
            long elapsed = nanoClock.getAsLong() - start;
            counters.selected(elapsed);
            node.counters().selected(elapsed);
        }
        return node;
    }

    /**
     * Chooses a node for one request to {@code target} (the request target as received). In a cluster that
     * takes registrations only nodes serving the target's context are candidates; {@code null} when none of
     * them is usable, or when no node serves the target at all ({@link #servesTarget} tells which). Otherwise
     * the same as {@link #pick(NodeView)}.
     */
    public NodeState pick(NodeView avoid, String target) {
        ContextPickers routing = contextPickers;
        if (routing == null) {
            return pickAny(avoid);
        }
        int context = routing.context(target);
        if (context < 0) {
            return null;
        }
        long start = nanoClock.getAsLong();
        return counted(routing.pick(context, avoid instanceof NodeState state ? state : null), start);
    }

    /** Another usable node of {@code pinned}'s domain serving {@code target}, by the policy, else {@code null}. */
    public NodeState pickInDomain(NodeState pinned, String target) {
        long start = nanoClock.getAsLong();
        NodeState partner = domainPickers.partner(pinned);
        return partner != null && serves(partner, target) ? counted(partner, start) : null;
    }

    /** Whether the cluster routes requests by context (registration enabled). */
    public boolean routesByContext() {
        return contextPickers != null;
    }

    /** Whether some node serves {@code target}: always, unless the cluster routes by context and none does. */
    public boolean servesTarget(String target) {
        ContextPickers routing = contextPickers;
        return routing == null || routing.context(target) >= 0;
    }

    /** Whether {@code node} may take a request to {@code target} (affinity must not cross contexts). */
    public boolean serves(NodeState node, String target) {
        ContextPickers routing = contextPickers;
        if (routing == null) {
            return true;
        }
        int context = routing.context(target);
        return context >= 0 && routing.serves(context, node);
    }

    /** Switches the policy live. Validation of id and options is the caller's job (it throws otherwise). */
    public synchronized void switchPolicy(LoadBalancingPolicy newPolicy, PolicyOptions options) {
        List<String> problems = newPolicy.validate(options);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        PolicyEnvironment env = environmentFor(options);
        Picker next = newPicker(newPolicy, null, env);
        LoadBalancingPolicy old = this.policy;
        this.environment = env;
        this.policy = newPolicy;
        this.policyPicker = next;
        this.picker = ramped(next);
        this.contextPickers = ContextPickers.of(config, nodes, newPolicy, env, null);
        this.domainPickers = DomainPickers.of(config, nodes, newPolicy, env, null);
        log.info("cluster {}: policy switched from {} to {}", name(), old.id(), newPolicy.id());
    }

    /**
     * Asks for the picker to be rebuilt soon, off the caller's thread: event loops call this when they
     * learn something (a connect failed) and must not rebuild pickers themselves. Picks check each
     * node's usability live, so until the rebuild only precomputed orderings are stale. Without a
     * refresher (a cluster nobody monitors) nothing is rebuilt.
     */
    public void requestRefresh() {
        Consumer<VirtualCluster> r = refresher;
        if (r != null) {
            r.accept(this);
        }
    }

    /** Who rebuilds this cluster's picker when {@link #requestRefresh()} is called. */
    public void setRefresher(Consumer<VirtualCluster> refresher) {
        this.refresher = refresher;
    }

    /** Rebuilds the picker from the current node state (flags, weights, agent samples). */
    public synchronized void refresh() {
        groups.apply(nodes, config);
        policyPicker = newPicker(policy, policyPicker, environment);
        picker = ramped(policyPicker);
        contextPickers = ContextPickers.of(config, nodes, policy, environment, contextPickers);
        domainPickers = DomainPickers.of(config, nodes, policy, environment, domainPickers);
        if (queue.busy()) {
            queue.slotFreed(); // a node may be back: the head of the queue looks again
        }
    }

    /** The priority groups' latest verdict (active priority, panic); {@code null} in a cluster without nodes. */
    public PriorityGroups.Verdict groupVerdict() {
        return groups.verdict();
    }

    /** Slow start's factors per node index ({@code null}: none ramps); off the event loops, seen at once. */
    synchronized void setRamp(double[] factors) {
        if (factors == null && ramp == null) {
            return;
        }
        ramp = factors;
        picker = ramped(policyPicker);
    }

    private Picker ramped(Picker policyOwn) {
        return ramp == null ? policyOwn : new RampingPicker(policyOwn, ramp, environment.random());
    }

    /** This cluster's slow start, or {@code null} when {@code slowStartMs} is 0. */
    public SlowStart slowStart() {
        return slowStart;
    }

    public void setSlowStart(SlowStart slowStart) {
        this.slowStart = slowStart;
    }

    /** {@code node} is about to be readmitted: its slow start begins first, so it never gets its share at once. */
    public void readmitting(NodeState node) {
        SlowStart s = slowStart;
        if (s != null) {
            s.begin(node);
        }
    }

    /**
     * The node answered {@code target} with a final {@code status} at {@code nowNanos} (event loop clock), once
     * per answer: a failure ({@link FailedAnswers}) counts in its recent failures; every one reaches outlier
     * detection.
     */
    public void answered(NodeState node, String target, int status, long nowNanos) {
        answers.answered(node, target, status, nowNanos);
    }

    /** Who is told of a node's 404 on a path another node serves ({@link #answered}); {@code null}: nobody. */
    public void setSuspicionSink(Consumer<NodeState> sink) {
        answers.setSuspicionSink(sink);
    }

    /** Where the HTTP exchange reports each answer and gateway failure ({@link OutcomeSink#NONE} by default). */
    public OutcomeSink outcomes() {
        return answers.outcomes();
    }

    public void setOutcomes(OutcomeSink outcomes) {
        answers.setOutcomes(outcomes);
    }

    public void setEnabled(NodeState node, boolean enabled) {
        if (enabled && !node.configuredEnabled()) {
            readmitting(node);
        }
        node.setEnabled(enabled);
        refresh();
        log.info("cluster {}: node {} {}", name(), node.name(), enabled ? "enabled" : "disabled");
    }

    public void setDraining(NodeState node, boolean draining) {
        setDrain(node, draining ? DrainMode.IMMEDIATE : DrainMode.NONE, 0, 0);
    }

    /** Starts, switches or ends a node's drain; returns the mode before (the caller says what switched). */
    public DrainMode setDrain(NodeState node, DrainMode mode, long deadlineMs, long sessionIdleMs) {
        if (mode == DrainMode.SESSIONS && sessionIdleMs < 1) {
            throw new IllegalArgumentException("sessionIdleMs " + sessionIdleMs + " must be at least 1");
        }
        if (mode == DrainMode.NONE && node.draining()) {
            readmitting(node);
        }
        DrainMode before = node.setDrain(mode, deadlineMs, sessionIdleMs);
        refresh();
        if (before != mode) {
            log.info("cluster {}: node {} drain {} (was {})", name(), node.name(), mode.id(), before.id());
        }
        return before;
    }

    public void setWeight(NodeState node, int weight) {
        if (weight < 1) {
            throw new IllegalArgumentException("weight " + weight + " must be at least 1");
        }
        node.setWeight(weight);
        refresh();
        log.info("cluster {}: node {} weight {}", name(), node.name(), weight);
    }
}
