package io.loadwise.console.web;

import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.ClusterStatus;
import io.loadwise.dispatcher.control.NodeStatus;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;

/**
 * {@code /graphs[?cluster=C][&node=N][&window=1h]}: the rrd4j graphs of a cluster (dispatcher figures) or
 * of one node (OS, OS network, JVM, app server, policy). The page script asks the graph listing API which
 * series exist and shows each as an image with a CSV link; images reload while the page is open.
 */
final class MetricsPage {

    static final List<String> WINDOWS = List.of("10m", "1h", "24h", "30d");
    /** Shown when the link names no window (the navigation's and the overview's links do not). */
    static final String DEFAULT_WINDOW = "1h";
    private static final List<String> WINDOW_LABELS = List.of("10 minutes", "1 hour", "24 hours", "30 days");
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
        b.append("<nav class=\"choices\"><span>Cluster:</span>");
        for (ClusterStatus c : clusters) {
            b.append(link(c.name(), null, window, c.name(), c == cluster && node == null));
        }
        b.append("</nav><nav class=\"choices\"><span>Node:</span>");
        for (NodeStatus n : cluster.nodes()) {
            b.append(link(cluster.name(), n.name(), window, n.name(), n == node));
        }
        b.append("</nav><nav class=\"choices\" id=\"windows\"><span>Window:</span>");
        for (int i = 0; i < WINDOWS.size(); i++) {
            b.append(link(cluster.name(), node == null ? null : node.name(), WINDOWS.get(i), WINDOW_LABELS.get(i),
                    WINDOWS.get(i).equals(window)));
        }
        String base = "/api/clusters/" + Html.url(cluster.name()) + (node == null ? "" : "/nodes/" + Html.url(node.name()));
        b.append("</nav><h2>").append(node == null ? "Cluster " + Html.text(cluster.name()) + ": dispatcher metrics"
                : "Node " + Html.text(node.name()) + " of " + Html.text(cluster.name())).append("</h2>")
                .append("<p class=\"hint\">Graphs reload every ").append(window.equals("10m") ? "10" : "60")
                .append(" seconds. Each series can be downloaded as CSV for the same window.</p>")
                .append("<div id=\"graphs\" data-base=\"").append(Html.text(base)).append("\" data-window=\"")
                .append(window).append("\" data-refresh=\"").append(window.equals("10m") ? 10 : 60)
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

    private static String link(String cluster, String node, String window, String label, boolean current) {
        return "<a href=\"/graphs?cluster=" + Html.url(cluster) + (node == null ? "" : "&amp;node=" + Html.url(node))
                + "&amp;window=" + window + "\"" + (current ? " class=\"current\"" : "") + ">" + Html.text(label) + "</a>";
    }
}
