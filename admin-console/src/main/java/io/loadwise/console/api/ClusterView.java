package io.loadwise.console.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.loadwise.dispatcher.config.Affinity;
import io.loadwise.dispatcher.config.AgentSettings;
import io.loadwise.dispatcher.config.Balance;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.DrainMode;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.TlsConfig;
import io.loadwise.dispatcher.control.AffinityCounts;
import io.loadwise.dispatcher.control.AgentStatus;
import io.loadwise.dispatcher.control.ClusterStatus;
import io.loadwise.dispatcher.control.DrainStatus;
import io.loadwise.dispatcher.control.GroupStatus;
import io.loadwise.dispatcher.control.HealthStatus;
import io.loadwise.dispatcher.control.ListenerStatus;
import io.loadwise.dispatcher.control.NodeStatus;
import io.loadwise.dispatcher.control.PolicyStatus;
import io.loadwise.dispatcher.tls.CertificateInfo;
import io.loadwise.policy.AgentSample;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * JSON of one running cluster: what {@code GET /api/clusters/{name}} returns, from a {@link ClusterStatus}.
 *
 * @param balance HTTP only, {@code null} for tcp
 * @param affinity HTTP only, {@code null} for tcp
 * @param affinityCounts HTTP only, {@code null} for tcp
 * @param config the cluster's configuration as persisted, ready to edit and {@code PUT} back; an agent
 *     secret shows as {@value AgentSettings#HIDDEN}, which a {@code PUT} keeps (see {@link ClustersResource})
 * @param groups the active priority groups and the panic state; {@code null} for a cluster without nodes
 */
record ClusterView(String name, Mode mode, Listen listen, PolicyInForce policy, Balance balance, Affinity affinity,
        AffinityCounts affinityCounts, List<NodeView> nodes, ClusterConfig config, ListenerView listener,
        GroupStatus groups) {

    /**
     * What the listener speaks and, on TLS, the certificates in use (as last reloaded). Built from the
     * dispatcher's {@link ListenerStatus} so that the JSON holds text and numbers only: {@code notAfter} is
     * ISO-8601 ({@code 2026-12-23T10:00:00Z}), {@code expiresSoon} is true from
     * {@link CertificateInfo#EXPIRY_WARNING} (14 days) before it, and after.
     */
    record ListenerView(List<String> protocols, boolean tls, String tlsProvider, List<String> tlsVersions,
            List<CertificateView> certificates, List<String> warnings) {

        static ListenerView of(ListenerStatus listener, Instant now) {
            if (listener == null) {
                return null;
            }
            List<CertificateView> certificates = new ArrayList<>();
            for (CertificateInfo info : listener.certificates()) {
                certificates.add(new CertificateView(info.subject(), info.subjectAltNames(), info.issuer(),
                        info.notAfter().toString(), Math.floorDiv(info.secondsToExpiry(now), 86_400L),
                        info.expiresSoon(now), info.serverNames()));
            }
            return new ListenerView(listener.protocols(), listener.tls(), listener.tlsProvider(),
                    listener.tlsVersions(), List.copyOf(certificates), listener.warnings());
        }
    }

    /**
     * @param daysToExpiry whole days until {@code notAfter}, negative once expired
     * @param serverNames the SNI names it is served for; empty for the default certificate
     */
    record CertificateView(String subject, List<String> subjectAltNames, String issuer, String notAfter,
            long daysToExpiry, boolean expiresSoon, List<String> serverNames) {
    }

    /** @param bound the address actually bound, {@code null} when not listening */
    record Listen(String configured, String bound) {
    }

    record PolicyInForce(String id, String description, boolean usesAgentMetrics, Map<String, Double> options) {

        static PolicyInForce of(PolicyStatus policy) {
            return new PolicyInForce(policy.id(), policy.description(), policy.readsAgentMetrics(), policy.options());
        }
    }

    /**
     * One node. {@code enabled} is the administrative flag; {@code draining} is separate, and a node takes
     * new work only when enabled, not draining and healthy. A silent agent does not make a node unhealthy:
     * {@code agent.state} says what the dispatcher knows about the agent, and {@code agentDown} (kept for
     * older clients) is true while an agent-driven policy has no fresh sample from the node. {@code health}
     * is the active health check; {@code ejected} and {@code ejectedUntil} (epoch ms, {@code null} when not
     * ejected) are outlier detection's, {@code ejections} counts them since start; {@code slowStartShare}
     * is the share of its picks a returning node keeps while it ramps up (1 when it does not ramp);
     * {@code awaitingReadiness}: out of selection until its application answers (its agent 200, or a health
     * check), after connect failures or its agent stopped answering 200; {@code groupState}: {@code active},
     * {@code standby} (its priority group is not in use) or {@code panic} (picked while it accepts connections);
     * {@code domain}: its replication domain, absent when it names none.
     */
    record NodeView(String name, String address, String route, int weight, boolean enabled, boolean draining,
            boolean healthy, boolean connectDown, boolean agentDown, int activeConnections, int inFlightRequests,
            Double recentResponseTimeMillis, long requests, long failures, long selections, AgentSummary agent,
            HealthSummary health, boolean ejected, Long ejectedUntil, long ejections, double slowStartShare,
            @JsonInclude(JsonInclude.Include.NON_NULL) Boolean registered,
            @JsonInclude(JsonInclude.Include.NON_NULL) List<String> contexts, boolean awaitingReadiness,
            String groupState, @JsonInclude(JsonInclude.Include.NON_NULL) DrainView drain,
            @JsonInclude(JsonInclude.Include.NON_NULL) String domain) {

        static NodeView of(PolicyStatus policy, NodeStatus node) {
            InetSocketAddress a = node.address();
            String address = (a.getHostString().indexOf(':') >= 0 ? "[" + a.getHostString() + "]" : a.getHostString())
                    + ":" + a.getPort();
            boolean agentDown = policy.readsAgentMetrics() && !node.agent().ok();
            return new NodeView(node.name(), address, node.route(), node.weight(), node.enabled(),
                    node.draining(), node.healthy(), node.connectDown(), agentDown, node.activeConnections(),
                    node.inFlightRequests(), Figures.finite(node.recentResponseTimeMillis()),
                    node.counters().completed() + node.counters().failed(), node.counters().failed(),
                    node.counters().selections(), AgentSummary.of(policy, node.agent()),
                    HealthSummary.of(node.health()), node.ejected(),
                    node.ejected() ? node.ejectedUntilMillis() : null, node.counters().ejections(),
                    node.slowStartShare(), node.registered() ? Boolean.TRUE : null,
                    node.contexts().isEmpty() ? null : node.contexts(), node.awaitingReadiness(),
                    node.groupState(), DrainView.of(node.drain()), node.domain());
        }
    }

    /**
     * A draining node's progress; absent when it is not draining.
     *
     * @param mode {@code immediate} ({@code "drain": true}) or {@code sessions}
     * @param state {@code draining}, {@code drained}, or {@code deadline-passed} (a session drain's deadline came
     *     first: the node drains as {@code true} and the sessions left are lost)
     * @param startedAt epoch ms
     * @param deadlineAt epoch ms, {@code null} without a deadline
     * @param sessionIdleMs session drain: without the agent's count, how long no pinned request must arrive
     * @param sessionsLeft active sessions its agent reports, {@code null} when unknown
     * @param pinnedLastMinute pinned requests that reached it during the last minute (session drain)
     */
    record DrainView(String mode, String state, long startedAt,
            @JsonInclude(JsonInclude.Include.NON_NULL) Long deadlineAt,
            @JsonInclude(JsonInclude.Include.NON_NULL) Long sessionIdleMs, Integer sessionsLeft,
            int pinnedLastMinute, int inFlightRequests) {

        static DrainView of(DrainStatus p) {
            if (p == null) {
                return null;
            }
            boolean sessions = p.mode() == DrainMode.SESSIONS;
            return new DrainView(p.mode().id(), p.state(), p.startedAtMillis(),
                    p.deadlineAtMillis() > 0 ? p.deadlineAtMillis() : null, sessions ? p.sessionIdleMs() : null,
                    p.sessionsLeft() < 0 ? null : p.sessionsLeft(), p.pinnedLastMinute(), p.inFlightRequests());
        }
    }

    /**
     * The active health check: {@code state} is {@code up}, {@code down} or {@code unknown} (no check has
     * concluded yet, or the node has no check: {@code checked} false); only {@code down} takes the node out.
     *
     * @param lastCheck the latest check, {@code null} before the first one ends
     */
    record HealthSummary(boolean checked, String state, LastCheck lastCheck) {

        static HealthSummary of(HealthStatus health) {
            HealthStatus.LastCheck r = health.lastCheck();
            return new HealthSummary(health.checked(), health.state(), r == null ? null
                    : new LastCheck(r.epochMillis(), r.ok(), r.status() == 0 ? null : r.status(), r.durationMillis(),
                            r.problem()));
        }
    }

    /**
     * @param timestampMillis when the check ended, epoch ms
     * @param status the HTTP status, {@code null} when there was none (TCP check, or no answer)
     * @param problem why it failed, {@code null} when it passed
     */
    record LastCheck(long timestampMillis, boolean ok, Integer status, long durationMillis, String problem) {
    }

    /**
     * What the dispatcher knows about the node's agent, and its latest sample whatever its age. The
     * sample's fields are left out until a first sample has arrived.
     *
     * @param state {@code ok} while a sample is fresh (younger than {@code agentExpiryMs}), otherwise
     *     {@code unknown}, or {@code unauthorized} when the agent refused the last poll with 401 (wrong or
     *     missing secret): the node stays in selection and agent-driven policies apply their fallback
     * @param problem why the state is not {@code ok}, {@code null} when it is
     * @param lastSampleAgeMs age of the last good sample, {@code null} when none has arrived
     * @param ageMs the same age, under its older name
     */
    record AgentSummary(String state, String problem, Long lastSampleAgeMs,
            @JsonInclude(JsonInclude.Include.NON_NULL) Long ageMs,
            @JsonInclude(JsonInclude.Include.NON_NULL) AgentSample.Source source,
            @JsonInclude(JsonInclude.Include.NON_NULL) Long timestampMillis,
            @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Double> metrics) {

        static AgentSummary of(PolicyStatus policy, AgentStatus agent) {
            String problem = agent.ok() ? null : problem(policy, agent);
            AgentSample sample = agent.latestSample();
            if (sample == null) {
                return new AgentSummary(agent.state(), problem, null, null, null, null, null);
            }
            long age = Math.max(0, agent.sampleAgeMillis());
            return new AgentSummary(agent.state(), problem, age, age, sample.source(), sample.timestampMillis(),
                    sample.metrics());
        }

        /** The node's problem, or why nothing asks the agent: a policy that reads no agent metrics. */
        private static String problem(PolicyStatus policy, AgentStatus agent) {
            if (!policy.readsAgentMetrics() && agent.latestSample() == null) {
                return "not polled: policy " + policy.id() + " reads no agent metrics";
            }
            return agent.problem();
        }
    }

    static ClusterView of(ClusterStatus cluster) {
        ClusterConfig config = cluster.config();
        List<NodeView> nodes = new ArrayList<>();
        for (NodeStatus node : cluster.nodes()) {
            nodes.add(NodeView.of(cluster.policy(), node));
        }
        InetSocketAddress bound = cluster.bound();
        boolean http = config.mode() == Mode.HTTP;
        return new ClusterView(cluster.name(), config.mode(),
                new Listen(config.listen(), bound == null ? null : bound.getHostString() + ":" + bound.getPort()),
                PolicyInForce.of(cluster.policy()), http ? config.balanceOrDefault() : null,
                http ? config.affinityOrDefault() : null, cluster.affinity(), nodes,
                withSecretHidden(withoutKeyPasswords(config)), ListenerView.of(cluster.listener(), Instant.now()),
                cluster.groups());
    }

    /** The API never returns an agent secret: it shows that there is one, and a PUT keeps it. */
    static ClusterConfig withSecretHidden(ClusterConfig config) {
        if (AgentSettings.secretOf(config) == null) {
            return config;
        }
        return config.toBuilder().agent(new AgentSettings(AgentSettings.HIDDEN)).build();
    }

    /** The configuration with TLS key passwords replaced: the API shows that one is set, never what it is. */
    static ClusterConfig withoutKeyPasswords(ClusterConfig config) {
        TlsConfig tls = config == null ? null : config.tls();
        if (tls == null) {
            return config;
        }
        return config.toBuilder().tls(withoutKeyPasswords(tls)).build();
    }

    /** TLS settings with each key password replaced by {@link #KEY_PASSWORD_SET}; {@code null} stays null. */
    static TlsConfig withoutKeyPasswords(TlsConfig tls) {
        return tls == null ? null : tls.withKeyPasswords((password, keyFile) -> hidden(password));
    }

    /** What the API shows for a TLS key password; a {@code PUT} that sends it back keeps the password in force. */
    static final String KEY_PASSWORD_SET = TlsConfig.KEY_PASSWORD_SET;

    private static String hidden(String password) {
        return password == null ? null : KEY_PASSWORD_SET;
    }
}
