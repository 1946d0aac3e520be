package io.loadwise.console.web;

import io.loadwise.console.replicas.ReplicaSeries;
import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.ClusterStatus;
import io.loadwise.dispatcher.control.ConfigUnavailableException;
import io.loadwise.dispatcher.control.NodeStatus;
import io.loadwise.dispatcher.control.ReplicaInfo;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;

/**
 * {@code /graphs[?cluster=C][&node=N][&window=1h][&view=this|sum|each]}: the graphs of a cluster
 * (dispatcher figures) or of one node (OS, OS network, JVM, app server, policy). The page script asks the graph
 * listing API which series exist and shows each as an image with a CSV link; images reload while the page is
 * open. When other replicas are registered, a cluster's page offers a switch: this replica's graphs (the
 * default), the sum over replicas (series that do not add up are then shown one line per replica), or one line
 * per replica.
 */
final class MetricsPage {

    static final List<String> WINDOWS = List.of("10m", "1h", "24h", "30d");
    /** Shown when the link names no window (the navigation's and the overview's links do not). */
    static final String DEFAULT_WINDOW = "1h";
    private static final List<String> WINDOW_LABELS = List.of("10 minutes", "1 hour", "24 hours", "30 days");
    static final List<String> VIEWS = List.of("this", "sum", "each");
    private static final List<String> VIEW_LABELS = List.of("This replica", "Sum over replicas", "Each replica");
    private static final List<String> VIEW_HEADINGS = List.of("", ", sum over replicas", ", each replica");
    private final ClusterControl control;

    MetricsPage(ClusterControl control) {
        this.control = control;
    }

    void get(HttpServletRequest request, HttpServletResponse response) throws IOException {
        List<ClusterStatus> clusters = control.clusterStatuses();
        StringBuilder b = new StringBuilder("<h1>Metrics</h1>");
        if (clusters.isEmpty()) {
            b.append("<p>No clusters, so no graphs yet.</p>");
            Layout.ok(request, response, "Metrics", "/graphs", b.toString());
            return;
        }
        String clusterName = request.getParameter("cluster");
        ClusterStatus cluster = clusterName == null ? clusters.get(0) : find(clusters, clusterName);
        if (cluster == null) {
            Layout.write(request, response, 404, "Metrics", "/graphs",
                    b.append("<p class=\"error\">No cluster named '").append(Html.text(clusterName))
                            .append("'. <a href=\"/graphs\">Show the first cluster</a></p>").toString());
            return;
        }
        String nodeName = request.getParameter("node");
        NodeStatus node = nodeName == null || nodeName.isEmpty() ? null : cluster.node(nodeName);
        if (nodeName != null && !nodeName.isEmpty() && node == null) {
            Layout.write(request, response, 404, "Metrics", "/graphs",
                    b.append("<p class=\"error\">Cluster '").append(Html.text(cluster.name())).append("' has no node '")
                            .append(Html.text(nodeName)).append("'.</p>").toString());
            return;
        }
        String window = request.getParameter("window");
        if (window == null || window.isEmpty()) {
            window = DEFAULT_WINDOW;
        } else if (!WINDOWS.contains(window)) {
            b.append("<p class=\"error\" id=\"window-error\">Unknown window '").append(Html.text(window))
                    .append("': choose one of ").append(String.join(", ", WINDOWS)).append(". <a href=\"/graphs?cluster=")
                    .append(Html.url(cluster.name())).append("\">Show the default window</a></p>");
            Layout.write(request, response, 400, "Metrics", "/graphs", b.toString());
            return;
        }
        String view = request.getParameter("view");
        if (view == null || view.isEmpty()) {
            view = "this";
        } else if (!VIEWS.contains(view)) {
            b.append("<p class=\"error\" id=\"view-error\">Unknown view '").append(Html.text(view))
                    .append("': choose one of ").append(String.join(", ", VIEWS)).append(". <a href=\"/graphs?cluster=")
                    .append(Html.url(cluster.name())).append("\">Show this replica's graphs</a></p>");
            Layout.write(request, response, 400, "Metrics", "/graphs", b.toString());
            return;
        }
        boolean replicaSwitch = node == null && otherReplicas();
        if (!replicaSwitch) {
            view = "this";
        }
        String carried = view.equals("this") ? null : view;
        b.append("<nav class=\"choices\"><span>Cluster:</span>");
        for (ClusterStatus c : clusters) {
            b.append(link(c.name(), null, window, carried, c.name(), c == cluster && node == null));
        }
        b.append("</nav><nav class=\"choices\"><span>Node:</span>");
        for (NodeStatus n : cluster.nodes()) {
            b.append(link(cluster.name(), n.name(), window, null, n.name(), n == node));
        }
        b.append("</nav><nav class=\"choices\" id=\"windows\"><span>Window:</span>");
        for (int i = 0; i < WINDOWS.size(); i++) {
            b.append(link(cluster.name(), node == null ? null : node.name(), WINDOWS.get(i), carried,
                    WINDOW_LABELS.get(i), WINDOWS.get(i).equals(window)));
        }
        if (replicaSwitch) {
            b.append("</nav><nav class=\"choices\" id=\"replica-view\"><span>Replicas:</span>");
            for (int i = 0; i < VIEWS.size(); i++) {
                String v = VIEWS.get(i);
                b.append(link(cluster.name(), null, window, v.equals("this") ? null : v, VIEW_LABELS.get(i),
                        v.equals(view)).replace("<a ", "<a data-view=\"" + v + "\" "));
            }
        }
        String base = "/api/clusters/" + Html.url(cluster.name()) + (node == null ? "" : "/nodes/" + Html.url(node.name()));
        b.append("</nav><h2>").append(node == null ? "Cluster " + Html.text(cluster.name()) + ": dispatcher metrics"
                + VIEW_HEADINGS.get(VIEWS.indexOf(view))
                : "Node " + Html.text(node.name()) + " of " + Html.text(cluster.name())).append("</h2>");
        if (!view.equals("this")) {
            b.append("<p class=\"hint\" id=\"replica-view-hint\">Each graph is drawn from every live replica's own "
                    + "metric store, fetched when it loads; a replica that does not answer within 2 seconds is left out "
                    + "and named under the graph.")
                    .append(view.equals("sum") ? " Means and ratios (times, slowdown) do not add up: they are shown one "
                            + "line per replica." : "")
                    .append("</p>");
        }
        if (node == null) {
            b.append(LatencyBars.section(control.latencyHistograms(), cluster.name()));
        }
        b.append("<p class=\"hint\">Graphs reload every ").append(window.equals("10m") ? "10" : "60")
                .append(view.equals("this") ? " seconds. Each series can be downloaded as CSV for the same window.</p>"
                        : " seconds. Each series can be downloaded as JSON for the same window.</p>")
                .append("<div id=\"graphs\" data-base=\"").append(Html.text(base)).append("\" data-window=\"")
                .append(window).append("\" data-view=\"").append(view).append("\" data-additive=\"")
                .append(String.join(" ", ReplicaSeries.ADDITIVE.stream().sorted().toList()))
                .append("\" data-refresh=\"").append(window.equals("10m") ? 10 : 60)
                .append("\"><p class=\"hint\" id=\"graphs-loading\">Loading the list of series…</p></div>");
        Layout.ok(request, response, "Metrics", "/graphs", b.toString());
    }

    /** The cluster with this name in one reading of them all, so that identity marks the current one. */
    private static ClusterStatus find(List<ClusterStatus> clusters, String name) {
        for (ClusterStatus cluster : clusters) {
            if (cluster.name().equals(name)) {
                return cluster;
            }
        }
        return null;
    }

    /** Whether the registry lists a replica other than this one (not when it cannot be read). */
    private boolean otherReplicas() {
        try {
            String self = control.replicaId();
            for (ReplicaInfo info : control.replicas()) {
                if (!info.id().equals(self)) {
                    return true;
                }
            }
        } catch (ConfigUnavailableException e) {
            return false;
        }
        return false;
    }

    private static String link(String cluster, String node, String window, String view, String label,
            boolean current) {
        return "<a href=\"/graphs?cluster=" + Html.url(cluster) + (node == null ? "" : "&amp;node=" + Html.url(node))
                + "&amp;window=" + window + (view == null ? "" : "&amp;view=" + view) + "\""
                + (current ? " class=\"current\"" : "") + ">" + Html.text(label) + "</a>";
    }
}
