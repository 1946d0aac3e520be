package io.loadwise.console.web;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.ConfigValidator;
import io.loadwise.dispatcher.config.DrainMode;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.ClusterStatus;
import io.loadwise.dispatcher.control.ListenerStatus;
import io.loadwise.dispatcher.control.NodeStatus;
import io.loadwise.dispatcher.tls.CertificateInfo;
import io.loadwise.policy.LoadBalancingPolicy;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Configuration: {@code /clusters} lists HTTP and TCP clusters with their live controls (policy switch,
 * node enable/disable/drain/weight, delete); {@code /clusters/new} and {@code /clusters/edit} show the
 * editor. Every change goes through {@link ClusterControl}: validated like the file, persisted
 * atomically, then applied.
 */
final class ClustersPage {

    private static final String FLASH = "loadwise.flash";
    private final ClusterControl control;

    ClustersPage(ClusterControl control) {
        this.control = control;
    }

    void list(HttpServletRequest request, HttpServletResponse response) throws IOException {
        StringBuilder b = new StringBuilder("<h1>Configuration</h1>").append(flash(request))
                .append("<p><a class=\"button\" id=\"new-cluster\" href=\"/clusters/new\">New cluster</a></p>");
        List<ClusterStatus> clusters = control.clusterStatuses();
        for (Mode mode : List.of(Mode.HTTP, Mode.TCP)) {
            b.append("<h2>").append(mode == Mode.HTTP ? "HTTP clusters (L7)" : "TCP clusters (L4)").append("</h2>");
            int shown = 0;
            for (ClusterStatus cluster : clusters) {
                if (cluster.mode() == mode) {
                    b.append(card(request, cluster));
                    shown++;
                }
            }
            if (shown == 0) {
                b.append("<p class=\"hint\">None.</p>");
            }
        }
        Layout.ok(request, response, "Configuration", "/clusters", b.toString());
    }

    /** Protocols and certificates of the listener; each certificate near or past expiry is marked. */
    static String listener(ListenerStatus listener) {
        if (listener == null) {
            return "";
        }
        StringBuilder b = new StringBuilder("<p class=\"listener\">Protocols <code>")
                .append(Html.text(String.join(", ", listener.protocols()))).append("</code>");
        if (listener.tls()) {
            b.append(" · ").append(Html.text(String.join("/", listener.tlsVersions()))).append(" with ")
                    .append(Html.text(listener.tlsProvider()));
        }
        b.append("</p>").append(EdgeCounts.proxyProtocol(listener.proxyProtocol()))
                .append(EdgeCounts.http3(listener.http3()));
        for (CertificateInfo certificate : listener.certificates()) {
            boolean soon = certificate.expiresSoon(Instant.now());
            b.append("<p class=\"certificate").append(soon ? " warning" : "").append("\">Certificate <code>")
                    .append(Html.text(certificate.subject())).append("</code>");
            if (!certificate.serverNames().isEmpty()) {
                b.append(" for ").append(Html.text(String.join(", ", certificate.serverNames())));
            }
            b.append(" · SANs ").append(Html.text(String.join(", ", certificate.subjectAltNames())))
                    .append(" · valid until ").append(Html.text(certificate.notAfter().toString()));
            if (soon) {
                b.append(" · <b>expires within 14 days</b>");
            }
            b.append("</p>");
        }
        return b.toString();
    }

    private String card(HttpServletRequest request, ClusterStatus cluster) {
        String name = cluster.name();
        StringBuilder b = new StringBuilder("<section class=\"card\" id=\"config-").append(Html.text(name)).append("\"><h3>")
                .append(Html.text(name)).append("</h3><p>Listens on <code>").append(Html.text(cluster.config().listen()))
                .append("</code> · policy <b class=\"policy\">").append(Html.text(cluster.policy().id())).append("</b></p>");
        b.append(listener(cluster.listener()));
        b.append("<form method=\"post\" action=\"/clusters/policy\" class=\"inline\">").append(Layout.csrfField(request))
                .append("<input type=\"hidden\" name=\"cluster\" value=\"").append(Html.text(name)).append("\">")
                .append("<label>Switch policy live <select name=\"policy\" class=\"policy-select\">");
        for (LoadBalancingPolicy p : control.policies().all().values()) {
            boolean usable = cluster.mode() == Mode.HTTP || ConfigValidator.tcpCapable(p);
            if (usable) {
                b.append("<option value=\"").append(Html.text(p.id())).append('"')
                        .append(p.id().equals(cluster.policy().id()) ? " selected" : "").append('>')
                        .append(Html.text(p.id())).append("</option>");
            }
        }
        b.append("</select></label> <button type=\"submit\" class=\"switch-policy\">Switch</button></form>");
        b.append("<table class=\"nodes\"><thead><tr><th>Node</th><th>Address</th><th>State</th><th>Weight</th>")
                .append("<th>Actions</th></tr></thead><tbody>");
        for (NodeStatus node : cluster.nodes()) {
            String n = node.name();
            b.append("<tr id=\"node-").append(Html.text(name + "-" + n)).append("\"><td>").append(Html.text(n))
                    .append(registration(node)).append("</td><td>").append(Html.text(node.address().getHostString() + ":" + node.address().getPort()))
                    .append("</td><td class=\"state\">").append(Html.text(OverviewPage.health(node)))
                    .append(OverviewPage.agentBadge(cluster.policy(), node)).append("</td><td>")
                    .append("<form method=\"post\" action=\"/clusters/node\" class=\"inline\">").append(Layout.csrfField(request))
                    .append(hidden("cluster", name)).append(hidden("node", n)).append(hidden("action", "weight"))
                    .append("<input name=\"weight\" size=\"4\" value=\"").append(node.weight())
                    .append("\"> <button type=\"submit\">Set</button></form></td><td>")
                    .append(nodeButton(request, name, n, node.enabled() ? "disable" : "enable"))
                    .append(node.draining() ? "" : nodeButton(request, name, n, "drain-sessions"))
                    .append(nodeButton(request, name, n, node.draining() ? "undrain" : "drain"))
                    .append("</td></tr>");
        }
        b.append("</tbody></table><p><a href=\"/clusters/edit?name=").append(Html.url(name)).append("\">Edit cluster and nodes</a> ")
                .append(Layout.button(request, "/clusters/delete", "Delete cluster", "danger", "name", name))
                .append("</p></section>");
        return b.toString();
    }

    /** A registered node's badge with its contexts (it is not in the configuration file); empty otherwise. */
    static String registration(NodeStatus node) {
        if (!node.registered() && node.contexts().isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        if (node.registered()) {
            b.append(" <span class=\"badge registered\" title=\"registered itself; not in the configuration file\">")
                    .append("registered</span>");
        }
        if (!node.contexts().isEmpty()) {
            b.append(" <span class=\"contexts\">").append(Html.text(String.join(", ", node.contexts()))).append("</span>");
        }
        return b.toString();
    }

    private static String nodeButton(HttpServletRequest request, String cluster, String node, String action) {
        return Layout.button(request, "/clusters/node", action.replace('-', ' '), "small", "cluster", cluster, "node", node,
                "action", action);
    }

    private static String hidden(String name, String value) {
        return "<input type=\"hidden\" name=\"" + name + "\" value=\"" + Html.text(value) + "\">";
    }

    void newForm(HttpServletRequest request, HttpServletResponse response) throws IOException {
        showForm(request, response, 200, ClusterForm.blank(), false);
    }

    void editForm(HttpServletRequest request, HttpServletResponse response) throws IOException {
        ClusterConfig config = configOf(request.getParameter("name"));
        if (config == null) {
            notFound(request, response, request.getParameter("name"));
            return;
        }
        showForm(request, response, 200, ClusterForm.of(config), true);
    }

    void save(HttpServletRequest request, HttpServletResponse response) throws IOException {
        boolean editing = "true".equals(request.getParameter("editing"));
        ClusterForm form = ClusterForm.read(request);
        String name = form.values.get("name").trim();
        ClusterConfig base = editing ? configOf(name) : null;
        if (editing && base == null) {
            notFound(request, response, name);
            return;
        }
        if (!editing && control.clusterStatus(name) != null) {
            form.addFieldError("name", "a cluster named '" + name + "' already exists; edit it instead");
        }
        ClusterConfig config = form.fieldErrors.isEmpty() ? form.build(base) : null;
        if (config != null) {
            try {
                if (editing) {
                    control.updateCluster(name, config);
                } else {
                    control.createCluster(config);
                }
                setFlash(request, (editing ? "Saved cluster '" : "Created cluster '") + name + "'.");
                Layout.redirect(response, "/clusters");
                return;
            } catch (ConfigValidationException e) {
                form.addValidationErrors(e.errors());
            } catch (IllegalArgumentException e) {
                form.generalErrors.add(e.getMessage());
            }
        }
        showForm(request, response, 400, form, editing);
    }

    void delete(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String name = request.getParameter("name");
        act(request, response, () -> control.deleteCluster(name), "Deleted cluster '" + name + "'.");
    }

    void switchPolicy(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String cluster = request.getParameter("cluster");
        String policy = request.getParameter("policy");
        act(request, response, () -> control.switchPolicy(cluster, policy, Map.of()),
                "Cluster '" + cluster + "' now uses policy " + policy + ".");
    }

    void node(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String cluster = request.getParameter("cluster");
        String node = request.getParameter("node");
        String action = String.valueOf(request.getParameter("action"));
        Action change = switch (action) {
            case "enable" -> () -> control.updateNode(cluster, node, true, null, null);
            case "disable" -> () -> control.updateNode(cluster, node, false, null, null);
            case "drain" -> () -> control.drainNode(cluster, node, DrainMode.IMMEDIATE, 0,
                    NodeConfig.DEFAULT_SESSION_IDLE_MS);
            case "drain-sessions" -> () -> control.drainNode(cluster, node, DrainMode.SESSIONS, 0,
                    NodeConfig.DEFAULT_SESSION_IDLE_MS);
            case "undrain" -> () -> control.drainNode(cluster, node, DrainMode.NONE, 0,
                    NodeConfig.DEFAULT_SESSION_IDLE_MS);
            case "weight" -> () -> control.updateNode(cluster, node, null, weight(request.getParameter("weight")), null);
            default -> () -> {
                throw new IllegalArgumentException("unknown node action '" + action + "'");
            };
        };
        act(request, response, change, "Node '" + node + "' of '" + cluster + "': " + action + " done.");
    }

    private static int weight(String text) {
        try {
            return Integer.parseInt(text == null ? "" : text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("weight: '" + text + "' is not a whole number (1-1000)");
        }
    }

    /** A change that may be refused. */
    @FunctionalInterface
    private interface Action {
        void run() throws ConfigValidationException;
    }

    private void act(HttpServletRequest request, HttpServletResponse response, Action action, String done)
            throws IOException {
        try {
            action.run();
            setFlash(request, done);
        } catch (ConfigValidationException e) {
            setFlash(request, "error:Not changed: " + String.join("; ", e.errors()));
        } catch (IllegalArgumentException | IllegalStateException e) {
            setFlash(request, "error:Not changed: " + e.getMessage());
        }
        Layout.redirect(response, "/clusters");
    }

    private ClusterConfig configOf(String name) {
        for (ClusterConfig c : control.config().clustersOrEmpty()) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        return null;
    }

    private void showForm(HttpServletRequest request, HttpServletResponse response, int status, ClusterForm form,
            boolean editing) throws IOException {
        String title = editing ? "Edit cluster " + form.values.get("name") : "New cluster";
        Layout.write(request, response, status, title, "/clusters", "<h1>" + Html.text(title) + "</h1>"
                + ClusterFormView.render(request, form, editing, control.policies()));
    }

    private static void notFound(HttpServletRequest request, HttpServletResponse response, String name)
            throws IOException {
        Layout.write(request, response, 404, "No such cluster", "/clusters", "<h1>No cluster named '"
                + Html.text(name) + "'</h1><p><a href=\"/clusters\">Back to the configuration</a></p>");
    }

    static void setFlash(HttpServletRequest request, String message) {
        request.getSession(true).setAttribute(FLASH, message);
    }

    static String flash(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        Object message = session == null ? null : session.getAttribute(FLASH);
        if (message == null) {
            return "";
        }
        session.removeAttribute(FLASH);
        String text = message.toString();
        boolean error = text.startsWith("error:");
        return "<p class=\"" + (error ? "error" : "done") + "\" id=\"flash\" role=\"status\">"
                + Html.text(error ? text.substring(6) : text) + "</p>";
    }
}
