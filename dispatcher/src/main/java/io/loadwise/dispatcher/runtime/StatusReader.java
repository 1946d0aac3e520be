package io.loadwise.dispatcher.runtime;

import io.loadwise.dispatcher.cluster.AgentState;
import io.loadwise.dispatcher.cluster.DrainProgress;
import io.loadwise.dispatcher.cluster.HealthReport;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.PriorityGroups;
import io.loadwise.dispatcher.cluster.SlowStart;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.control.AffinityCounts;
import io.loadwise.dispatcher.control.AgentPolling;
import io.loadwise.dispatcher.control.AgentStatus;
import io.loadwise.dispatcher.control.ClusterStatus;
import io.loadwise.dispatcher.control.DrainStatus;
import io.loadwise.dispatcher.control.GroupStatus;
import io.loadwise.dispatcher.control.HealthStatus;
import io.loadwise.dispatcher.control.ListenerStatus;
import io.loadwise.dispatcher.control.NodeStatus;
import io.loadwise.dispatcher.control.PolicyStatus;
import io.loadwise.dispatcher.http.AffinityCounters;
import io.loadwise.dispatcher.http.HttpProxyServer;
import io.loadwise.dispatcher.monitor.AgentStats;
import io.loadwise.dispatcher.monitor.NodeMonitor;
import io.loadwise.dispatcher.net.ProxyProtocolStats;
import io.loadwise.dispatcher.tcp.TcpProxyServer;
import io.loadwise.dispatcher.tls.ServerTls;
import io.loadwise.dispatcher.tls.TlsListener;
import io.loadwise.dispatcher.tls.TlsProviders;
import io.loadwise.policy.LoadBalancingPolicy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Copies a running cluster's live state into the views of {@link io.loadwise.dispatcher.control.ClusterControl}.
 * Runs on the thread that asks (an API request, the console's once-a-second recorder), never on an event
 * loop; it only reads volatile fields and counters, so the proxy never waits for it.
 */
final class StatusReader {

    private StatusReader() {
    }

    /**
     * @param inForce the cluster's configuration as persisted
     * @param registered names of the nodes that registered themselves
     */
    static ClusterStatus cluster(RunningCluster running, ClusterConfig inForce, NodeMonitor monitor,
            java.util.Set<String> registered) {
        VirtualCluster cluster = running.cluster();
        LoadBalancingPolicy policy = cluster.policy();
        PolicyStatus policyStatus = new PolicyStatus(policy.id(), policy.description(), policy.inputs(),
                cluster.policyOptions().asMap());
        List<NodeStatus> nodes = new ArrayList<>(cluster.nodes().size());
        SlowStart slowStart = cluster.slowStart();
        List<io.loadwise.dispatcher.config.NodeConfig> configs = cluster.config().nodesOrEmpty();
        for (NodeState node : cluster.nodes()) {
            NodeStatus status = node(node, monitor.stats(node), slowStart == null ? 1.0 : slowStart.factor(node));
            io.loadwise.dispatcher.config.NodeConfig config = node.index() < configs.size() ? configs.get(node.index())
                    : null;
            List<String> contexts = config == null ? List.of() : config.contextsOrEmpty();
            nodes.add(status.withRegistration(registered.contains(node.name()), contexts)
                    .withDomain(config == null ? null : config.domain()));
        }
        return new ClusterStatus(cluster.name(), inForce, running.listener().boundAddress(), policyStatus,
                affinity(running), cluster.counters().read(), nodes, listener(running, inForce),
                groups(cluster.groupVerdict()));
    }

    private static GroupStatus groups(PriorityGroups.Verdict verdict) {
        return verdict == null ? null : new GroupStatus(verdict.activePriority(), verdict.backupActive(),
                verdict.panic(), verdict.usableNodes(), verdict.countedNodes());
    }

    /** Protocols and certificates of the listener (the certificates as last reloaded), and its PROXY header counts. */
    static ListenerStatus listener(RunningCluster running, ClusterConfig config) {
        ProxyProtocolStats stats = running.listener() instanceof HttpProxyServer http
                ? (http.listener() == null ? null : http.listener().proxyProtocolStats())
                : running.listener() instanceof TcpProxyServer tcp ? tcp.proxyProtocolStats() : null;
        return protocols(running, config).withProxyProtocol(RoutedStatusReader.proxyCounts(stats));
    }

    private static ListenerStatus protocols(RunningCluster running, ClusterConfig config) {
        if (!(running.listener() instanceof HttpProxyServer http)) {
            return new ListenerStatus(List.of("tcp"), false, null, List.of(), List.of(), List.of());
        }
        boolean h2 = config.http2OrDefault().enabledOrDefault();
        TlsListener tls = http.tls();
        if (tls == null) {
            return new ListenerStatus(h2 ? List.of("http/1.1", "h2c") : List.of("http/1.1"), false, null, List.of(),
                    List.of(), List.of());
        }
        ServerTls current = tls.current();
        io.loadwise.dispatcher.http.Http3Support h3 = http.listener() == null ? null : http.listener().http3();
        List<String> protocols = new java.util.ArrayList<>(ServerTls.alpnFor(h2));
        if (h3 != null) {
            protocols.add("h3"); // over UDP on the same port
        }
        return new ListenerStatus(protocols, true, TlsProviders.describe(current.provider()),
                config.tls().protocolsOrDefault(), current.certificates(),
                ServerTls.expiryWarnings("cluster " + config.name(), current.certificates(), Instant.now()),
                h3 == null ? null : h3.counts(), null);
    }

    private static AffinityCounts affinity(RunningCluster running) {
        if (!(running.listener() instanceof HttpProxyServer http)) {
            return null;
        }
        AffinityCounters counters = http.affinityCounters();
        return new AffinityCounts(counters.hits(), counters.misses(), counters.unpinned(),
                counters.domainPartner());
    }

    /** @param stats the node monitor's figures, {@code null} when the node is not monitored */
    static NodeStatus node(NodeState node, AgentStats stats, double slowStartShare) {
        boolean healthy = node.healthy();
        AgentState state = node.agentState();
        AgentStatus agent = new AgentStatus(state == AgentState.OK, state.id(),
                state == AgentState.OK ? null : node.agentProblem(), node.latestAgentSample(),
                node.agentSampleAgeMillis(), stats == null ? null : polling(stats));
        return new NodeStatus(node.name(), node.address(), node.route(), node.weight(), node.configuredEnabled(),
                node.draining(), healthy, node.connectDown(), node.activeConnections(), node.inFlightRequests(),
                node.recentResponseTimeMillis(), node.counters().read(), agent, health(node.health()), node.ejected(),
                node.ejectedUntilMillis(), slowStartShare, false, List.of(), node.awaitingReadiness(),
                node.gate().name().toLowerCase(java.util.Locale.ROOT), drain(node.drainProgress()));
    }

    private static DrainStatus drain(DrainProgress p) {
        return p == null ? null : new DrainStatus(p.mode(), p.state().id(), p.startedAtMillis(), p.deadlineAtMillis(),
                p.sessionIdleMs(), p.sessionsLeft(), p.pinnedLastMinute(), p.inFlightRequests());
    }

    private static HealthStatus health(HealthReport report) {
        if (!report.checked()) {
            return HealthStatus.NOT_CHECKED;
        }
        HealthReport.CheckResult r = report.lastCheck();
        return new HealthStatus(true, report.state().id(), r == null ? null
                : new HealthStatus.LastCheck(r.epochMillis(), r.ok(), r.status(), r.durationMillis(), r.problem()));
    }

    private static AgentPolling polling(AgentStats stats) {
        return new AgentPolling(stats.pollsOk(), stats.pollsFailed(), stats.piggybackReports(),
                stats.malformedReports(), stats.lastError(), stats.lastPollMillis(), stats.availabilityPercent());
    }
}
