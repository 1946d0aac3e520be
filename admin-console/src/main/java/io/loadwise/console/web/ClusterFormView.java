package io.loadwise.console.web;

import io.loadwise.dispatcher.config.ConfigValidator;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.PolicyRegistry;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Map;

/** Renders the cluster editor: every field with its guidance and, after a failed save, its errors. */
final class ClusterFormView {

    private ClusterFormView() {
    }

    static String render(HttpServletRequest request, ClusterForm form, boolean editing, PolicyRegistry policies) {
        StringBuilder b = new StringBuilder();
        if (!form.generalErrors.isEmpty() || !form.fieldErrors.isEmpty()) {
            b.append("<div class=\"error\" id=\"form-errors\" role=\"alert\"><p>Nothing was changed: ")
                    .append("please correct the fields marked below.</p>");
            if (!form.generalErrors.isEmpty()) {
                b.append("<ul>");
                form.generalErrors.forEach(e -> b.append("<li>").append(Html.text(e)).append("</li>"));
                b.append("</ul>");
            }
            b.append("</div>");
        }
        b.append("<form method=\"post\" action=\"/clusters/save\" class=\"editor\" id=\"cluster-form\">")
                .append(Layout.csrfField(request))
                .append("<input type=\"hidden\" name=\"editing\" value=\"").append(editing).append("\">");
        b.append(field(form, "name", "Name", editing
                ? "<input id=\"f-name\" name=\"name\" readonly value=\"" + Html.text(form.values.get("name")) + "\">"
                : "<input id=\"f-name\" name=\"name\" required maxlength=\"64\" value=\"" + Html.text(form.values.get("name")) + "\">",
                editing ? "Clusters cannot be renamed: create a new one and delete this one instead."
                        : "1-64 letters, digits, '.', '_' or '-', starting with a letter or digit. Used in URLs and graphs."));
        b.append(field(form, "mode", "Mode", select("mode", form.values.get("mode"), Map.of("http", "http", "tcp", "tcp")),
                "<b>http</b>: L7 reverse proxy, a node per request, all policies, session affinity. "
                        + "<b>tcp</b>: L4 tunnel, a node per connection, for any protocol; only state-blind policies."));
        b.append(field(form, "listen", "Listen address", input("listen", form.values.get("listen"), "0.0.0.0:8080"),
                "host:port the cluster accepts clients on, e.g. <code>0.0.0.0:8080</code> (all interfaces) or "
                        + "<code>127.0.0.1:9000</code>. Port 1-65535, not used by another cluster."));
        StringBuilder policyOptions = new StringBuilder();
        for (LoadBalancingPolicy p : policies.all().values()) {
            policyOptions.append("<option value=\"").append(Html.text(p.id())).append('"')
                    .append(p.id().equals(form.values.get("policy")) ? " selected" : "").append('>')
                    .append(Html.text(p.id())).append(ConfigValidator.tcpCapable(p) ? "" : " (http only)")
                    .append("</option>");
        }
        b.append(field(form, "policy", "Policy", "<select id=\"f-policy\" name=\"policy\">" + policyOptions + "</select>",
                "How the next node is chosen. <a href=\"/docs/policies\">Each policy and its formula</a>."));
        b.append(field(form, "policyOptions", "Policy options", input("policyOptions", form.values.get("policyOptions"),
                "queueThreshold=80, heapThreshold=85"), "Optional numeric options as name=value, comma separated "
                        + "(only jvm-aware and f5-dynamic-ratio take any)."));
        b.append("<fieldset class=\"http-only\"><legend>HTTP settings (ignored for tcp)</legend>");
        b.append(field(form, "balance", "Balance", select("balance", form.values.get("balance"),
                Map.of("per-request", "per-request", "per-connection", "per-connection")),
                "Choose a node for every request (default) or once per client connection."));
        b.append(field(form, "affinity", "Session affinity", select("affinity", form.values.get("affinity"),
                Map.of("none", "none", "cookie", "cookie")),
                "<b>cookie</b> keeps a session on the node named by the route in its JSESSIONID (set each node's route)."));
        b.append(field(form, "affinityCookie", "Affinity cookie", input("affinityCookie", form.values.get("affinityCookie"),
                "LWROUTE"), "Name of the cookie Loadwise sets when the application has no routed session id; default LWROUTE."));
        b.append("</fieldset>");
        b.append(field(form, "connectTimeoutMs", "Connect timeout (ms)", input("connectTimeoutMs",
                form.values.get("connectTimeoutMs"), "2000"), "How long to wait for a node to accept; default 2000."));
        b.append(field(form, "idleTimeoutMs", "Idle timeout (ms)", input("idleTimeoutMs", form.values.get("idleTimeoutMs"),
                "30000"), "An idle client connection is closed after this long; default 30000."));
        b.append(nodeTable(form));
        b.append("<p><button type=\"submit\" id=\"save-cluster\">").append(editing ? "Save changes" : "Create cluster")
                .append("</button> <a href=\"/clusters\">Cancel</a></p></form>");
        return b.toString();
    }

    private static String nodeTable(ClusterForm form) {
        StringBuilder b = new StringBuilder("<h2>Nodes</h2><p class=\"hint\">One row per application server. "
                + "Leave a row blank to ignore it; clear a row to remove that node. "
                + "Save and edit again for more rows.</p>");
        for (String e : form.fieldErrors.getOrDefault("nodes", List.of())) {
            b.append("<p class=\"field-error\" id=\"err-nodes\">").append(Html.text(e)).append("</p>");
        }
        b.append("<table class=\"node-rows\"><thead><tr><th>Name</th><th>Address (host:port)</th><th>Weight</th>")
                .append("<th>Enabled</th><th>Route (http)</th></tr></thead><tbody>");
        for (int r = 0; r < form.rows.size(); r++) {
            ClusterForm.NodeRow row = form.rows.get(r);
            String p = "node." + r + ".";
            b.append("<tr>")
                    .append(cell(form, r, "name", "<input name=\"" + p + "name\" id=\"f-" + p + "name\" value=\""
                            + Html.text(row.name()) + "\" placeholder=\"node1\">"))
                    .append(cell(form, r, "address", "<input name=\"" + p + "address\" id=\"f-" + p + "address\" value=\""
                            + Html.text(row.address()) + "\" placeholder=\"10.0.0.5:8080\">"))
                    .append(cell(form, r, "weight", "<input name=\"" + p + "weight\" id=\"f-" + p + "weight\" size=\"4\" value=\""
                            + Html.text(row.weight()) + "\">"))
                    .append(cell(form, r, "enabled", "<input type=\"checkbox\" name=\"" + p + "enabled\""
                            + (row.enabled() ? " checked" : "") + ">"))
                    .append(cell(form, r, "route", "<input name=\"" + p + "route\" value=\"" + Html.text(row.route())
                            + "\" placeholder=\"jvmRoute\">"))
                    .append("</tr>");
        }
        return b.append("</tbody></table><p class=\"hint\">Weight 1-1000 (static-wrr and weighted policies); route is "
                + "the node's Tomcat <code>jvmRoute</code> or Liberty <code>cloneId</code> for cookie affinity.</p>").toString();
    }

    private static String cell(ClusterForm form, int row, String field, String input) {
        StringBuilder b = new StringBuilder("<td>").append(input);
        for (String e : form.fieldErrors.getOrDefault("nodes[" + row + "]." + field, List.of())) {
            b.append("<span class=\"field-error\" id=\"err-node-").append(row).append('-').append(field).append("\">")
                    .append(Html.text(e)).append("</span>");
        }
        return b.append("</td>").toString();
    }

    private static String field(ClusterForm form, String key, String label, String input, String guidance) {
        List<String> errors = form.fieldErrors.getOrDefault(key, List.of());
        StringBuilder b = new StringBuilder("<div class=\"field").append(errors.isEmpty() ? "" : " invalid")
                .append("\"><label for=\"f-").append(key).append("\">").append(label).append("</label>").append(input);
        for (String e : errors) {
            b.append("<p class=\"field-error\" id=\"err-").append(key).append("\">").append(Html.text(e)).append("</p>");
        }
        return b.append("<p class=\"hint\">").append(guidance).append("</p></div>").toString();
    }

    private static String input(String key, String value, String placeholder) {
        return "<input id=\"f-" + key + "\" name=\"" + key + "\" value=\"" + Html.text(value) + "\" placeholder=\""
                + Html.text(placeholder) + "\">";
    }

    private static String select(String key, String value, Map<String, String> choices) {
        StringBuilder b = new StringBuilder("<select id=\"f-").append(key).append("\" name=\"").append(key).append("\">");
        choices.keySet().stream().sorted().forEach(v -> b.append("<option value=\"").append(Html.text(v)).append('"')
                .append(v.equals(value) ? " selected" : "").append('>').append(Html.text(choices.get(v))).append("</option>"));
        return b.append("</select>").toString();
    }
}
