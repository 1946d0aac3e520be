package io.loadwise.console.web;

import io.loadwise.console.replicas.LiveFigures;
import io.loadwise.console.replicas.PeerFigures;
import io.loadwise.console.replicas.ReplicasView;
import io.loadwise.dispatcher.control.ClusterControl;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Locale;

/**
 * {@code /replicas}: every live replica sharing this configuration (id, admin URL, listen addresses, version,
 * start, whether it answers) and, per cluster, each replica's live figures next to their sum. The other
 * replicas' figures are fetched server-side from their admin API within {@link PeerFigures}' bounds, so a dead
 * replica shows as unreachable and the page still comes back. Reloads itself.
 */
final class ReplicasPage {

    private final ClusterControl control;
    private final PeerFigures peers;

    ReplicasPage(ClusterControl control, PeerFigures peers) {
        this.control = control;
        this.peers = peers;
    }

    void get(HttpServletRequest request, HttpServletResponse response) throws IOException {
        ReplicasView view = ReplicasView.collect(control, peers);
        StringBuilder b = new StringBuilder("<div data-autoreload=\"10\"></div><h1>Replicas</h1>");
        if (view.registryProblem() != null) {
            b.append("<p class=\"error\" id=\"registry-problem\">").append(Html.text(view.registryProblem()))
                    .append(". Only this replica is shown.</p>");
        } else if (control.replicaId() == null) {
            b.append("<p class=\"hint\" id=\"file-store\">This dispatcher keeps its configuration in a file, so it is "
                    + "the only replica. To run several that share one configuration, see "
                    + "<a href=\"/docs/scale-out\">Scale-out</a>.</p>");
        }
        b.append("<p class=\"hint\">Refreshes every 10 seconds. Every replica's figures are its own; "
                + "<strong>All replicas</strong> is their sum over the replicas that answered.</p>");
        b.append(replicaTable(view));
        for (LiveFigures.Cluster sum : view.sum().clusters()) {
            b.append(clusterCard(view, sum));
        }
        Layout.ok(request, response, "Replicas", "/replicas", b.toString());
    }

    private static String replicaTable(ReplicasView view) {
        StringBuilder b = new StringBuilder("<table id=\"replicas\"><thead><tr><th>Replica</th><th>Admin URL</th>")
                .append("<th>Listens on</th><th>Version</th><th>Started</th><th>Alive</th></tr></thead><tbody>");
        for (ReplicasView.Replica r : view.replicas()) {
            b.append("<tr class=\"replica\" data-replica=\"").append(Html.text(r.info().id())).append("\"><td>")
                    .append(Html.text(r.info().id())).append(r.self() ? " <span class=\"tag\">this one</span>" : "")
                    .append("</td><td>").append(link(r.info().adminUrl(), r.info().adminUrl())).append("</td><td>")
                    .append(Html.text(String.join(", ", r.info().listen()))).append("</td><td>")
                    .append(Html.text(r.info().version())).append("</td><td>").append(Html.text(r.info().startedAt()))
                    .append("</td><td class=\"alive\">")
                    .append(r.alive() ? "<span class=\"health good\">alive</span>"
                            : "<span class=\"health bad\">unreachable</span>: " + Html.text(r.problem()))
                    .append("</td></tr>");
        }
        return b.append("</tbody></table>").toString();
    }

    private static String clusterCard(ReplicasView view, LiveFigures.Cluster sum) {
        String name = sum.name();
        List<LiveFigures.Node> nodes = sum.nodes();
        StringBuilder b = new StringBuilder("<section class=\"card\" id=\"replica-figures-").append(Html.text(name))
                .append("\"><h2>").append(Html.text(name)).append("</h2><table class=\"replica-figures\"><thead><tr>")
                .append("<th>Replica</th><th>Throughput</th><th>Failures</th><th>Active connections</th>")
                .append("<th>Completed</th><th>Failed</th>");
        for (LiveFigures.Node node : nodes) {
            b.append("<th>").append(Html.text(node.name())).append(" selections</th>");
        }
        b.append("</tr></thead><tbody>");
        for (ReplicasView.Replica r : view.replicas()) {
            b.append("<tr data-replica=\"").append(Html.text(r.info().id())).append("\"><td>")
                    .append(Html.text(r.info().id())).append("</td>");
            LiveFigures.Cluster own = r.figures() == null ? null : r.figures().cluster(name);
            if (own == null) {
                b.append("<td colspan=\"").append(5 + nodes.size()).append("\" class=\"hint\">")
                        .append(r.figures() == null ? "unreachable" : "does not run this cluster").append("</td>");
            } else {
                b.append(figureCells(own, nodes));
            }
            b.append("</tr>");
        }
        b.append("<tr class=\"sum\" data-replica=\"\"><th>All replicas</th>").append(figureCells(sum, nodes))
                .append("</tr></tbody></table><p>Graphs (each replica keeps its own metric stores): ");
        String sep = "";
        for (ReplicasView.Replica r : view.replicas()) {
            String target = r.self() ? "/graphs?cluster=" + Html.url(name)
                    : r.info().adminUrl() == null ? null : r.info().adminUrl() + "/graphs?cluster=" + Html.url(name);
            if (target != null) {
                b.append(sep).append(link(target, r.info().id()));
                sep = " · ";
            }
        }
        if (view.replicas().size() > 1) {
            b.append(sep).append("all replicas: ")
                    .append(link("/graphs?cluster=" + Html.url(name) + "&view=sum", "summed"))
                    .append(", ").append(link("/graphs?cluster=" + Html.url(name) + "&view=each", "each"));
        }
        return b.append("</p></section>").toString();
    }

    private static String figureCells(LiveFigures.Cluster c, List<LiveFigures.Node> columns) {
        StringBuilder b = new StringBuilder()
                .append("<td class=\"throughput\">").append(format(c.throughput())).append(" req/s</td>")
                .append("<td class=\"failures\">").append(format(c.failuresPerSecond())).append(" /s</td>")
                .append("<td>").append(c.activeConnections()).append("</td>")
                .append("<td class=\"completed\">").append(c.completed()).append("</td>")
                .append("<td class=\"failed\">").append(c.failed()).append("</td>");
        for (LiveFigures.Node column : columns) {
            LiveFigures.Node n = c.node(column.name());
            b.append("<td class=\"selections\">")
                    .append(n == null ? "–" : format(n.selectionsPerSecond()) + " /s (" + n.selections() + ")")
                    .append("</td>");
        }
        return b.toString();
    }

    /** A link for an http(s) URL, plain text for anything else (a registry entry is not trusted as markup). */
    private static String link(String url, String label) {
        if (url == null) {
            return "–";
        }
        boolean web = url.startsWith("/") || url.regionMatches(true, 0, "http://", 0, 7)
                || url.regionMatches(true, 0, "https://", 0, 8);
        return web ? "<a href=\"" + Html.text(url) + "\">" + Html.text(label) + "</a>" : Html.text(label);
    }

    private static String format(double value) {
        return String.format(Locale.ROOT, value >= 100 ? "%.0f" : "%.1f", value);
    }
}
