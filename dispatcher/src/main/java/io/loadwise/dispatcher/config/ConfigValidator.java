package io.loadwise.dispatcher.config;

import static io.loadwise.dispatcher.config.FieldChecks.checkListen;
import static io.loadwise.dispatcher.config.FieldChecks.checkName;
import static io.loadwise.dispatcher.config.FieldChecks.checkPath;
import static io.loadwise.dispatcher.config.FieldChecks.checkTrustedProxies;
import static io.loadwise.dispatcher.config.FieldChecks.httpOnly;
import static io.loadwise.dispatcher.config.FieldChecks.positive;

import io.loadwise.dispatcher.net.NodeAddress;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.PolicyInput;
import io.loadwise.policy.PolicyOptions;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.policy.UnknownPolicyException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Semantic checks of a whole configuration, the same for the file, the REST API and the console. Every
 * message starts with the path of the offending field: {@code clusters[0].nodes[2].address: port 99999
 * out of range}.
 */
public final class ConfigValidator {

    public static final int MAX_WEIGHT = 1000;
    public static final int MAX_CLIENT_CONNECTIONS = 10_000_000;
    /** Event-loop threads: far more than any machine has cores; a larger number is a typo. */
    public static final int MAX_WORKER_THREADS = 1024;
    /** Ten years: a longer retention is a typo, not a plan. */
    public static final int MAX_METRICS_RETENTION_HOURS = 87_600;
    public static final Set<String> LOG_LEVELS = Set.of("trace", "debug", "info", "warn", "error", "off");

    static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final Pattern COOKIE_NAME = Pattern.compile("[A-Za-z0-9!#$%&'*+.^_`|~-]+");

    private final PolicyRegistry policies;
    private final List<ClusterCheck> clusterChecks;

    /** Validates with the {@link ClusterCheck}s on the class path (the TLS files check among them). */
    public ConfigValidator(PolicyRegistry policies) {
        this(policies, ClusterCheck.installed());
    }

    /** Validates with exactly these {@link ClusterCheck}s besides its own. */
    public ConfigValidator(PolicyRegistry policies, List<ClusterCheck> clusterChecks) {
        this.policies = policies;
        this.clusterChecks = List.copyOf(clusterChecks);
    }

    /** Throws with every problem found, or returns normally. */
    public void check(LoadwiseConfig config) throws ConfigValidationException {
        List<String> errors = validate(config);
        if (!errors.isEmpty()) {
            throw new ConfigValidationException(errors);
        }
    }

    /** Every problem found, in file order; empty when the configuration is valid. */
    public List<String> validate(LoadwiseConfig config) {
        List<String> errors = new ArrayList<>();
        Integer adminPort = TopLevelChecks.checkAdmin(config.admin(), errors);
        range("maxClientConnections", config.maxClientConnections(), 1, MAX_CLIENT_CONNECTIONS, errors);
        range("workerThreads", config.workerThreads(), 1, MAX_WORKER_THREADS, errors);
        TopLevelChecks.checkTransport(config.transport(), errors);
        TopLevelChecks.checkLogging(config.logging(), errors);
        TracingChecks.check(config.tracing(), errors);
        ResilienceChecks.top(config, errors);
        if (config.config() != null) {
            errors.addAll(config.config().validate());
        }
        Map<String, Integer> clusterNames = new HashMap<>();
        Map<Integer, String> ports = new HashMap<>();
        if (adminPort != null && adminPort != 0) {
            ports.put(adminPort, "admin.listen");
        }
        List<ClusterConfig> clusters = config.clustersOrEmpty();
        for (int i = 0; i < clusters.size(); i++) {
            String at = "clusters[" + i + "]";
            ClusterConfig cluster = clusters.get(i);
            if (cluster == null) {
                errors.add(at + ": missing");
                continue;
            }
            if (checkName(at + ".name", cluster.name(), errors)) {
                Integer first = clusterNames.putIfAbsent(cluster.name(), i);
                if (first != null) {
                    errors.add(at + ".name: duplicate cluster name '" + cluster.name() + "' (also clusters[" + first + "])");
                }
            }
            // an http cluster without listen is only a route target (listeners[].routes lead to it)
            Integer port = cluster.listen() == null && cluster.mode() == Mode.HTTP ? null
                    : checkListen(at + ".listen", cluster.listen(), errors);
            if (port != null && port != 0) {
                String owner = ports.putIfAbsent(port, at + ".listen");
                if (owner != null) {
                    errors.add(at + ".listen: port " + port + " already used by " + owner);
                }
            }
            checkCluster(at, cluster, errors);
        }
        Map<String, Mode> modes = new HashMap<>();
        clusters.stream().filter(c -> c != null && c.name() != null && c.mode() != null)
                .forEach(c -> modes.putIfAbsent(c.name(), c.mode()));
        ListenerChecks.check(config, modes, ports, errors);
        return errors;
    }

    /** Checks one cluster on its own (name, listen syntax, policy, nodes), with paths under {@code at}. */
    public List<String> validateCluster(String at, ClusterConfig cluster) {
        List<String> errors = new ArrayList<>();
        checkName(at + ".name", cluster.name(), errors);
        if (cluster.listen() != null || cluster.mode() != Mode.HTTP) {
            checkListen(at + ".listen", cluster.listen(), errors);
        }
        checkCluster(at, cluster, errors);
        return errors;
    }

    private void checkCluster(String at, ClusterConfig c, List<String> errors) {
        if (c.mode() == null) {
            errors.add(at + ".mode: missing (tcp or http)");
        }
        checkPolicy(at, c, errors);
        positive(at + ".connectTimeoutMs", c.connectTimeoutMs(), errors);
        positive(at + ".responseTimeoutMs", c.responseTimeoutMs(), errors);
        positive(at + ".idleTimeoutMs", c.idleTimeoutMs(), errors);
        positive(at + ".unhealthyRetryMs", c.unhealthyRetryMs(), errors);
        positive(at + ".agentPollIntervalMs", c.agentPollIntervalMs(), errors);
        positive(at + ".agentExpiryMs", c.agentExpiryMs(), errors);
        positive(at + ".agentReprobeMs", c.agentReprobeMs(), errors);
        range(at + ".connectAttempts", c.connectAttempts(), 1, 100, errors);
        range(at + ".maxConnectionsPerNode", c.maxConnectionsPerNode(), 1, 1_000_000, errors);
        range(at + ".maxHeaderBytes", c.maxHeaderBytes(), 1024, 1024 * 1024, errors);
        positive(at + ".headerTimeoutMs", c.headerTimeoutMs(), errors);
        positive(at + ".requestIdleTimeoutMs", c.requestIdleTimeoutMs(), errors);
        positive(at + ".responseIdleTimeoutMs", c.responseIdleTimeoutMs(), errors);
        range(at + ".exchangeTimeoutMs", c.exchangeTimeoutMs(), 0, Integer.MAX_VALUE, errors);
        range(at + ".maxClientConnections", c.maxClientConnections(), 1, MAX_CLIENT_CONNECTIONS, errors);
        checkTrustedProxies(at + ".trustedProxies", c.trustedProxies(), errors);
        checkPath(at + ".agentPath", c.agentPath(), errors);
        if (c.affinityCookie() != null && !COOKIE_NAME.matcher(c.affinityCookie()).matches()) {
            errors.add(at + ".affinityCookie: '" + c.affinityCookie() + "' is not a valid cookie name");
        }
        if (c.mode() == Mode.TCP) {
            httpOnly(at + ".balance", c.balance(), errors);
            httpOnly(at + ".affinity", c.affinity(), errors);
            httpOnly(at + ".affinityCookie", c.affinityCookie(), errors);
            httpOnly(at + ".maxHeaderBytes", c.maxHeaderBytes(), errors);
            httpOnly(at + ".responseTimeoutMs", c.responseTimeoutMs(), errors);
            httpOnly(at + ".maxConnectionsPerNode", c.maxConnectionsPerNode(), errors);
            httpOnly(at + ".agentPath", c.agentPath(), errors);
            httpOnly(at + ".agentPollIntervalMs", c.agentPollIntervalMs(), errors);
            httpOnly(at + ".agentExpiryMs", c.agentExpiryMs(), errors);
            httpOnly(at + ".agentReprobeMs", c.agentReprobeMs(), errors);
            httpOnly(at + ".headerTimeoutMs", c.headerTimeoutMs(), errors);
            httpOnly(at + ".requestIdleTimeoutMs", c.requestIdleTimeoutMs(), errors);
            httpOnly(at + ".responseIdleTimeoutMs", c.responseIdleTimeoutMs(), errors);
            httpOnly(at + ".exchangeTimeoutMs", c.exchangeTimeoutMs(), errors);
            httpOnly(at + ".trustedProxies", c.trustedProxies(), errors);
            httpOnly(at + ".agent", c.agent(), errors);
        }
        ProxyProtocolChecks.cluster(at, c, errors);
        NodeProtocol.check(at, c, errors);
        if (c.http3() != null && (c.mode() != Mode.HTTP || c.listen() == null)) {
            errors.add(at + ".http3: only for a cluster in mode http with a listen of its own; set it on the"
                    + " listener that routes to it");
        }
        Http3Config.check(at + ".http3", c.http3(), c.tls() != null, errors);
        ResilienceChecks.cluster(at, c, errors);
        GroupChecks.cluster(at, c, errors);
        checkRegistration(at, c, errors);
        checkAgentSecret(at + ".agent.secret", AgentSettings.secretOf(c), errors);
        checkNodes(at, c, errors);
        for (ClusterCheck check : clusterChecks) {
            check.check(at, c, errors);
        }
    }

    /** The message never holds the secret: validation errors are shown and logged. */
    private static void checkAgentSecret(String at, String secret, List<String> errors) {
        String problem = secret == null ? null : AgentSettings.problem(secret);
        if (problem != null) {
            errors.add(at + ": " + problem);
        }
    }

    private void checkPolicy(String at, ClusterConfig c, List<String> errors) {
        if (c.policy() == null || c.policy().isBlank()) {
            errors.add(at + ".policy: missing; known policies: " + String.join(", ", policies.all().keySet()));
            return;
        }
        LoadBalancingPolicy policy;
        try {
            policy = policies.get(c.policy());
        } catch (UnknownPolicyException e) {
            errors.add(at + ".policy: " + (policies.all().isEmpty()
                    ? "unknown policy '" + c.policy() + "': no policies are installed (is loadwise-policies on the class path?)"
                    : e.getMessage()));
            return;
        }
        boolean optionsComplete = true;
        for (Map.Entry<String, Double> option : new java.util.TreeMap<>(c.policyOptionsOrEmpty()).entrySet()) {
            if (option.getValue() == null) {
                errors.add(at + ".policyOptions." + option.getKey() + ": missing value");
                optionsComplete = false;
            }
        }
        if (optionsComplete) {
            for (String problem : policy.validate(PolicyOptions.of(c.policyOptionsOrEmpty()))) {
                errors.add(at + "." + problem);
            }
        }
        if (c.mode() == Mode.TCP && !tcpCapable(policy)) {
            List<String> usable = new ArrayList<>();
            for (LoadBalancingPolicy p : policies.all().values()) {
                if (tcpCapable(p)) {
                    usable.add(p.id());
                }
            }
            errors.add(at + ".policy: '" + policy.id() + "' needs " + describe(policy.inputs())
                    + ", which a tcp cluster does not collect; use mode http or one of: " + String.join(", ", usable));
        }
    }

    /**
     * Whether a TCP cluster can run the policy: it must declare no {@link PolicyInput}. A TCP tunnel sees
     * connections and bytes only: no request timings, and its nodes need not speak HTTP, so the
     * dispatcher does not poll agents for them (TCP policies are state-blind, as in the seed).
     */
    public static boolean tcpCapable(LoadBalancingPolicy policy) {
        return policy.inputs().isEmpty();
    }

    /** "node agent metrics and HTTP request timings", in {@link PolicyInput} order. */
    static String describe(Set<PolicyInput> inputs) {
        List<String> names = new ArrayList<>();
        for (PolicyInput input : PolicyInput.values()) {
            if (inputs.contains(input)) {
                names.add(switch (input) {
                    case AGENT_METRICS -> "node agent metrics";
                    case RESPONSE_TIMES -> "HTTP request timings";
                });
            }
        }
        return String.join(" and ", names);
    }

    /** {@code registration}: HTTP only, allowed networks required, per-request balancing (contexts differ per request). */
    private static void checkRegistration(String at, ClusterConfig c, List<String> errors) {
        RegistrationConfig r = c.registration();
        if (r == null) {
            return;
        }
        String rat = at + ".registration";
        if (c.mode() == Mode.TCP) {
            errors.add(rat + ": only allowed for mode http");
            return;
        }
        range(rat + ".ttlMs", r.ttlMs(), RegistrationConfig.MIN_TTL_MS, RegistrationConfig.MAX_TTL_MS, errors);
        range(rat + ".maxNodes", r.maxNodes(), 1, RegistrationConfig.MAX_MAX_NODES, errors);
        List<String> networks = r.allowedNetworksOrEmpty();
        if (r.enabledOrDefault() && networks.isEmpty()) {
            errors.add(rat + ".allowedNetworks: required when registration is enabled (CIDR blocks such as "
                    + "10.0.0.0/8 that registered node addresses must fall in)");
        }
        checkTrustedProxies(rat + ".allowedNetworks", r.allowedNetworks(), errors);
        if (r.enabledOrDefault() && c.balance() == Balance.PER_CONNECTION) {
            errors.add(at + ".balance: per-connection cannot be combined with registration (requests of one "
                    + "connection may name different contexts); use per-request");
        }
    }

    private void checkNodes(String at, ClusterConfig c, List<String> errors) {
        List<NodeConfig> nodes = c.nodesOrEmpty();
        if (nodes.isEmpty() && c.registrationEnabled()) {
            return; // the nodes register themselves
        }
        if (nodes.isEmpty()) {
            errors.add(at + ".nodes: at least one node is required");
            return;
        }
        Map<String, Integer> names = new HashMap<>();
        for (int j = 0; j < nodes.size(); j++) {
            String nat = at + ".nodes[" + j + "]";
            NodeConfig n = nodes.get(j);
            if (n == null) {
                errors.add(nat + ": missing");
                continue;
            }
            if (checkName(nat + ".name", n.name(), errors)) {
                Integer first = names.putIfAbsent(n.name(), j);
                if (first != null) {
                    errors.add(nat + ".name: duplicate node name '" + n.name() + "' (also " + at + ".nodes[" + first + "])");
                }
            }
            try {
                NodeAddress.parse(n.address());
            } catch (IllegalArgumentException e) {
                errors.add(nat + ".address: " + e.getMessage());
            }
            range(nat + ".weight", n.weight(), 1, MAX_WEIGHT, errors);
            ResilienceChecks.node(nat, c, n, errors);
            GroupChecks.node(nat, n, errors);
            GroupChecks.domain(nat + ".domain", c.mode(), n.domain(), errors);
            checkPath(nat + ".agentPath", n.agentPath(), errors);
            if (n.route() != null && !NAME.matcher(n.route()).matches()) {
                errors.add(nat + ".route: '" + n.route() + "' may contain only letters, digits, '.', '_' and '-'");
            }
            checkContexts(nat + ".contexts", c, n.contexts(), errors);
            if (c.mode() == Mode.TCP) {
                httpOnly(nat + ".route", n.route(), errors);
                httpOnly(nat + ".agentPath", n.agentPath(), errors);
            }
        }
    }

    private static void checkContexts(String at, ClusterConfig c, List<String> contexts, List<String> errors) {
        if (contexts == null) {
            return;
        }
        if (!c.registrationEnabled()) {
            errors.add(at + ": only allowed when registration.enabled is true (contexts route by path there)");
            return;
        }
        if (contexts.isEmpty() || contexts.size() > ContextPath.MAX_PER_NODE) {
            errors.add(at + ": " + contexts.size() + " contexts, expected 1.." + ContextPath.MAX_PER_NODE);
        }
        for (int i = 0; i < contexts.size(); i++) {
            String problem = ContextPath.problem(contexts.get(i));
            if (problem != null) {
                errors.add(at + "[" + i + "]: " + problem);
            }
        }
    }


    /** See {@link FieldChecks#range}; kept here for the other checks of this package. */
    static void range(String at, Integer value, int min, int max, List<String> errors) {
        FieldChecks.range(at, value, min, max, errors);
    }
}
