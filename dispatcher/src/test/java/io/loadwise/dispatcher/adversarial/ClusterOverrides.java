package io.loadwise.dispatcher.adversarial;

import io.loadwise.dispatcher.config.Balance;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.ContextPath;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.config.RegistrationConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The cluster a case runs against: an HTTP cluster on {@code 127.0.0.1:0} with round robin over the raw
 * node(s), plus the case's {@code cluster: key=value} overrides (the {@link ClusterConfig} field names).
 */
final class ClusterOverrides {

    private final Map<String, String> values = new LinkedHashMap<>();
    /** What a Java case sets that has no text form (a {@code tls} object); applied last. */
    private UnaryOperator<ClusterConfig.Builder> extra = UnaryOperator.identity();

    /** A route table (JSON array) for a listener in front of the cluster, or null: the cluster's own port. */
    private String routes;
    /** The {@code rateLimits} object the routes refer to, or null. */
    private String rateLimits;

    /** The case runs against a listener with these routes ({@code routes:}, a JSON array on one line). */
    ClusterOverrides routes(String json) {
        this.routes = json;
        return this;
    }

    /** The {@code rateLimits} of such a listener ({@code rate-limits:}, a JSON object on one line). */
    ClusterOverrides rateLimits(String json) {
        this.rateLimits = json;
        return this;
    }

    String routes() {
        return routes;
    }

    /** Whether node connections start with a PROXY header ({@code sendProxyProtocol}). */
    boolean sendsProxyHeader() {
        return values.containsKey("sendProxyProtocol");
    }

    String rateLimits() {
        return rateLimits;
    }

    /** Adds {@code key=value}; an unknown key is refused here, when the corpus is read. */
    ClusterOverrides set(String assignment) {
        int eq = assignment.indexOf('=');
        if (eq <= 0) {
            throw new IllegalArgumentException("cluster override is key=value: " + assignment);
        }
        String key = assignment.substring(0, eq).trim();
        String value = assignment.substring(eq + 1).trim();
        apply(ClusterConfig.builder(), key, value); // validates
        values.put(key, value);
        return this;
    }

    ClusterOverrides set(String key, Object value) {
        return set(key + "=" + value);
    }

    /** For Java cases: fields that are objects, such as {@code tls}. */
    ClusterOverrides with(UnaryOperator<ClusterConfig.Builder> more) {
        UnaryOperator<ClusterConfig.Builder> before = extra;
        extra = b -> more.apply(before.apply(b));
        return this;
    }

    ClusterConfig build(String name, List<String> nodeAddresses) {
        List<NodeConfig> nodes = new ArrayList<>();
        List<String> contexts = values.containsKey("contexts") ? commaList(values.get("contexts")) : null;
        for (int i = 0; i < nodeAddresses.size(); i++) {
            String limit = values.get("maxConnections"); // a node field, set on every node
            nodes.add(new NodeConfig("raw" + (i + 1), nodeAddresses.get(i), null, null, null, null, null,
                    limit == null ? null : Integer.valueOf(limit), contexts));
        }
        ClusterConfig.Builder builder = ClusterConfig.builder().name(name).mode(Mode.HTTP).listen("127.0.0.1:0")
                .policy("round-robin").connectTimeoutMs(1_000).unhealthyRetryMs(60_000).nodes(nodes);
        for (Map.Entry<String, String> entry : values.entrySet()) {
            apply(builder, entry.getKey(), entry.getValue());
        }
        return extra.apply(builder).build();
    }

    private static void apply(ClusterConfig.Builder b, String key, String value) {
        switch (key) {
            case "connectTimeoutMs" -> b.connectTimeoutMs(Integer.valueOf(value));
            case "responseTimeoutMs" -> b.responseTimeoutMs(Integer.valueOf(value));
            case "idleTimeoutMs" -> b.idleTimeoutMs(Integer.valueOf(value));
            case "maxHeaderBytes" -> b.maxHeaderBytes(Integer.valueOf(value));
            case "maxConnectionsPerNode" -> b.maxConnectionsPerNode(Integer.valueOf(value));
            case "connectAttempts" -> b.connectAttempts(Integer.valueOf(value));
            case "headerTimeoutMs" -> b.headerTimeoutMs(Integer.valueOf(value));
            case "requestIdleTimeoutMs" -> b.requestIdleTimeoutMs(Integer.valueOf(value));
            case "responseIdleTimeoutMs" -> b.responseIdleTimeoutMs(Integer.valueOf(value));
            case "exchangeTimeoutMs" -> b.exchangeTimeoutMs(Integer.valueOf(value));
            case "maxClientConnections" -> b.maxClientConnections(Integer.valueOf(value));
            case "trustedProxies" -> b.trustedProxies(Arrays.stream(value.split(",")).map(String::trim).toList());
            // proxyProtocol=ACCEPT:cidr,cidr (accept v1, v2 or any; the trusted sources)
            case "proxyProtocol" -> b.proxyProtocol(new io.loadwise.dispatcher.config.ProxyProtocolConfig(
                    value.substring(0, value.indexOf(':')), commaList(value.substring(value.indexOf(':') + 1)), 1_000));
            case "sendProxyProtocol" -> b.sendProxyProtocol(value); // the raw node then reads a header first
            case "balance" -> b.balance(Balance.of(value));
            case "queueTimeoutMs" -> b.queueTimeoutMs(Integer.valueOf(value));
            case "maxQueue" -> b.maxQueue(Integer.valueOf(value));
            case "retryBudgetPercent" -> b.retryBudgetPercent(Integer.valueOf(value));
            case "maxConnections" -> Integer.valueOf(value); // every node's; applied in build
            // Routing by context: registration on with these allowed networks, the raw node serving "contexts".
            case "registration" -> b.registration(new RegistrationConfig(true, commaList(value), null, null));
            case "contexts" -> commaList(value).forEach(c -> {
                String problem = ContextPath.problem(c);
                if (problem != null) {
                    throw new IllegalArgumentException("contexts: " + problem);
                }
            });
            default -> throw new IllegalArgumentException("unknown cluster override '" + key + "'");
        }
    }

    private static List<String> commaList(String value) {
        return Arrays.stream(value.split(",")).map(String::trim).toList();
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
