package io.loadwise.console.web;

import io.loadwise.dispatcher.config.Affinity;
import io.loadwise.dispatcher.config.Balance;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.DrainMode;
import io.loadwise.dispatcher.config.HealthCheckConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The cluster editor's form: its values as typed, turned into a {@link ClusterConfig} (fields the form
 * does not show are kept from the cluster being edited), and the validator's messages mapped back onto
 * the fields they name ({@code clusters[0].nodes[2].address: ...} lands next to row 2's address).
 */
final class ClusterForm {

    /** Blank node rows offered below the existing ones. */
    static final int SPARE_ROWS = 3;
    private static final Pattern CLUSTER_PREFIX = Pattern.compile("^clusters\\[\\d+\\]\\.?");
    private static final Pattern FIELD = Pattern.compile("^([A-Za-z]+)(?:\\[(\\d+)\\])?(?:\\.([A-Za-z]+))?");

    /** One node row as typed. */
    record NodeRow(String name, String address, String weight, boolean enabled, String route) {
        boolean blank() {
            return name.isBlank() && address.isBlank() && route.isBlank() && (weight.isBlank() || weight.equals("1"));
        }
    }

    final Map<String, String> values = new LinkedHashMap<>();
    final List<NodeRow> rows = new ArrayList<>();
    /** Field key ({@code listen}, {@code nodes[1].address}, row-based) → message. */
    final Map<String, List<String>> fieldErrors = new LinkedHashMap<>();
    final List<String> generalErrors = new ArrayList<>();
    /** Index in the built config's node list → form row. */
    private final List<Integer> rowOfNode = new ArrayList<>();

    static ClusterForm of(ClusterConfig c) {
        ClusterForm f = new ClusterForm();
        f.values.put("name", c.name());
        f.values.put("mode", c.mode() == null ? "http" : c.mode().id());
        f.values.put("listen", nz(c.listen()));
        f.values.put("policy", nz(c.policy()));
        f.values.put("policyOptions", options(c.policyOptionsOrEmpty()));
        f.values.put("balance", c.balanceOrDefault().id());
        f.values.put("affinity", c.affinityOrDefault().id());
        f.values.put("affinityCookie", nz(c.affinityCookie()));
        f.values.put("connectTimeoutMs", c.connectTimeoutMs() == null ? "" : c.connectTimeoutMs().toString());
        f.values.put("idleTimeoutMs", c.idleTimeoutMs() == null ? "" : c.idleTimeoutMs().toString());
        for (NodeConfig n : c.nodesOrEmpty()) {
            f.rows.add(new NodeRow(nz(n.name()), nz(n.address()), String.valueOf(n.weightOrDefault()),
                    n.enabledOrDefault(), nz(n.route())));
        }
        f.addSpareRows();
        return f;
    }

    static ClusterForm blank() {
        ClusterForm f = of(ClusterConfig.builder().name("").mode(Mode.HTTP).listen("0.0.0.0:8080").policy("round-robin")
                .nodes(List.of()).build());
        f.values.put("name", "");
        return f;
    }

    static ClusterForm read(HttpServletRequest request) {
        ClusterForm f = new ClusterForm();
        for (String key : List.of("name", "mode", "listen", "policy", "policyOptions", "balance", "affinity",
                "affinityCookie", "connectTimeoutMs", "idleTimeoutMs")) {
            f.values.put(key, param(request, key));
        }
        for (int i = 0; i < 256 && request.getParameter("node." + i + ".name") != null; i++) {
            f.rows.add(new NodeRow(param(request, "node." + i + ".name"), param(request, "node." + i + ".address"),
                    param(request, "node." + i + ".weight"), request.getParameter("node." + i + ".enabled") != null,
                    param(request, "node." + i + ".route")));
        }
        return f;
    }

    void addSpareRows() {
        for (int i = 0; i < SPARE_ROWS; i++) {
            rows.add(new NodeRow("", "", "1", true, ""));
        }
    }

    /**
     * The configuration the form describes, or {@code null} with {@link #fieldErrors} filled when a value
     * cannot even be read (a weight that is not a number). {@code base} is the cluster being edited, whose
     * hidden settings are kept, or {@code null} for a new one.
     */
    ClusterConfig build(ClusterConfig base) {
        Mode mode = values.get("mode").equals("tcp") ? Mode.TCP : Mode.HTTP;
        boolean http = mode == Mode.HTTP;
        Map<String, Double> options = parseOptions(values.get("policyOptions"));
        Integer connectTimeout = parseInt("connectTimeoutMs", values.get("connectTimeoutMs"));
        Integer idleTimeout = parseInt("idleTimeoutMs", values.get("idleTimeoutMs"));
        Balance balance = choice("balance", values.get("balance"), Balance::of);
        Affinity affinity = choice("affinity", values.get("affinity"), Affinity::of);
        List<NodeConfig> nodes = new ArrayList<>();
        rowOfNode.clear();
        for (int r = 0; r < rows.size(); r++) {
            NodeRow row = rows.get(r);
            if (row.blank()) {
                continue;
            }
            Integer weight = parseInt("nodes[" + r + "].weight", row.weight());
            String agentPath = null;
            HealthCheckConfig healthCheck = null; // not on the form: a node keeps its override
            Integer maxConnections = null; // nor its limit of requests in flight
            List<String> contexts = null; // nor the contexts it serves
            Integer priority = null; // nor its priority group
            Boolean backup = null;
            DrainMode drain = null; // nor a drain kept in the file
            if (base != null) {
                for (NodeConfig old : base.nodesOrEmpty()) {
                    if (old.name() != null && old.name().equals(row.name())) {
                        agentPath = old.agentPath();
                        healthCheck = old.healthCheck();
                        maxConnections = old.maxConnections();
                        contexts = old.contexts();
                        priority = old.priority();
                        backup = old.backup();
                        drain = old.drain();
                    }
                }
            }
            nodes.add(new NodeConfig(row.name().trim(), row.address().trim(), weight, row.enabled() ? null : false,
                    http ? emptyToNull(row.route()) : null, agentPath, healthCheck, http ? maxConnections : null,
                    http ? contexts : null, priority, backup, drain));
            rowOfNode.add(r);
        }
        if (!fieldErrors.isEmpty()) {
            return null;
        }
        // The form edits some fields; the cluster being edited keeps the others (HTTP-only ones dropped for tcp).
        ClusterConfig.Builder b = base != null ? base.toBuilder() : ClusterConfig.builder();
        b.name(values.get("name").trim()).mode(mode).listen(values.get("listen").trim())
                .policy(emptyToNull(values.get("policy"))).policyOptions(options.isEmpty() ? null : options)
                .balance(http ? balance : null).affinity(http ? affinity : null)
                .affinityCookie(http ? emptyToNull(values.get("affinityCookie")) : null)
                .connectTimeoutMs(connectTimeout).idleTimeoutMs(idleTimeout).nodes(nodes);
        if (!http) {
            b.responseTimeoutMs(null).maxHeaderBytes(null).agentPath(null).agentPollIntervalMs(null)
                    .agentExpiryMs(null).agentReprobeMs(null).headerTimeoutMs(null).requestIdleTimeoutMs(null)
                    .responseIdleTimeoutMs(null).exchangeTimeoutMs(null).trustedProxies(null)
                    .tls(null).http2(null).nodeTls(null).outlierDetection(null)
                    .queueTimeoutMs(null).maxQueue(null).retryBudgetPercent(null).retryOn(null).registration(null);
        }
        return b.build();
    }

    /** Files the validator's messages under the fields they name. */
    void addValidationErrors(List<String> errors) {
        for (String error : errors) {
            String rest = CLUSTER_PREFIX.matcher(error).replaceFirst("");
            Matcher m = FIELD.matcher(rest);
            int colon = rest.indexOf(": ");
            if (rest.equals(error) || !m.find() || colon < 0) {
                generalErrors.add(error);
                continue;
            }
            String message = rest.substring(colon + 2);
            String field = m.group(1);
            if (field.equals("nodes") && m.group(2) != null) {
                int node = Integer.parseInt(m.group(2));
                int row = node < rowOfNode.size() ? rowOfNode.get(node) : node;
                String sub = m.group(3) == null ? "name" : m.group(3);
                addFieldError("nodes[" + row + "]." + sub, message);
            } else if (field.startsWith("policyOptions") || field.equals("policy") && rest.startsWith("policyOptions")) {
                addFieldError("policyOptions", message);
            } else if (values.containsKey(field) || field.equals("nodes")) {
                addFieldError(field, message);
            } else {
                generalErrors.add(rest);
            }
        }
    }

    void addFieldError(String field, String message) {
        fieldErrors.computeIfAbsent(field, k -> new ArrayList<>()).add(message);
    }

    /** A select's value; {@code null} (the default) when empty. */
    private <T> T choice(String field, String text, java.util.function.Function<String, T> parse) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return parse.apply(text.trim());
        } catch (IllegalArgumentException e) {
            addFieldError(field, e.getMessage());
            return null;
        }
    }

    private Integer parseInt(String field, String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return Integer.valueOf(text.trim());
        } catch (NumberFormatException e) {
            addFieldError(field, "'" + text.trim() + "' is not a whole number");
            return null;
        }
    }

    /** {@code name=value} pairs separated by commas or new lines. */
    private Map<String, Double> parseOptions(String text) {
        Map<String, Double> options = new LinkedHashMap<>();
        if (text == null) {
            return options;
        }
        for (String pair : text.split("[,\\n]")) {
            if (pair.isBlank()) {
                continue;
            }
            int eq = pair.indexOf('=');
            try {
                if (eq <= 0) {
                    throw new NumberFormatException();
                }
                options.put(pair.substring(0, eq).trim(), Double.valueOf(pair.substring(eq + 1).trim()));
            } catch (NumberFormatException e) {
                addFieldError("policyOptions", "'" + pair.trim() + "' is not name=number");
            }
        }
        return options;
    }

    static String options(Map<String, Double> options) {
        StringBuilder b = new StringBuilder();
        options.forEach((k, v) -> b.append(b.length() == 0 ? "" : ", ").append(k).append('=').append(v));
        return b.toString();
    }

    private static String param(HttpServletRequest request, String name) {
        String value = request.getParameter(name);
        return value == null ? "" : value;
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    private static String emptyToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
