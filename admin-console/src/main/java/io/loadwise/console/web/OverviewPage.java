package io.loadwise.console.web;

import io.loadwise.dispatcher.config.DrainMode;
import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.ClusterStatus;
import io.loadwise.dispatcher.control.DrainStatus;
import io.loadwise.dispatcher.control.GroupStatus;
import io.loadwise.dispatcher.control.HealthStatus;
import io.loadwise.dispatcher.control.NodeStatus;
import io.loadwise.dispatcher.control.PolicyStatus;
import io.loadwise.dispatcher.metrics.CounterReading;
import io.loadwise.dispatcher.metrics.MetricsSnapshot;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Locale;

/** {@code /}: every cluster with its listener, policy, node health and current traffic. Reloads itself. */
final class OverviewPage {

    private final ClusterControl control;

    OverviewPage(ClusterControl control) {
        this.control = control;
    }

    void get(HttpServletRequest request, HttpServletResponse response) throws IOException {
        StringBuilder b = new StringBuilder("<div data-autoreload=\"10\"></div><h1>Overview</h1>");
        List<ClusterStatus> clusters = control.clusterStatuses();
        if (clusters.isEmpty()) {
            b.append("<p>No clusters yet. <a href=\"/clusters/new\">Create one</a> to start balancing.</p>");
        }
        b.append("<p class=\"hint\">Refreshes every 10 seconds. Figures are per second over the last second.</p>");
        for (ClusterStatus cluster : clusters) {
            b.append(clusterCard(cluster));
        }
        Layout.ok(request, response, "Overview", "/", b.toString());
    }

    private String clusterCard(ClusterStatus cluster) {
        String name = cluster.name();
        InetSocketAddress bound = cluster.bound();
        MetricsSnapshot now = latest(control.history(name));
        CounterReading totals = cluster.totals();
        StringBuilder b = new StringBuilder("<section class=\"card\" id=\"cluster-").append(Html.text(name))
                .append("\"><h2>").append(Html.text(name)).append(" <span class=\"tag\">")
                .append(cluster.mode().id()).append("</span></h2><dl class=\"facts\">")
                .append("<dt>Listens on</dt><dd>").append(Html.text(cluster.config().listen()))
                .append(bound == null ? " <span class=\"bad\">not listening</span>"
                        : " (bound " + Html.text(bound.getHostString() + ":" + bound.getPort()) + ")")
                .append("</dd><dt>Policy</dt><dd class=\"policy\">").append(Html.text(cluster.policy().id()))
                .append("</dd><dt>Throughput</dt><dd class=\"throughput\">")
                .append(now == null ? "–" : format(now.throughput()) + " req/s")
                .append("</dd><dt>Failures</dt><dd class=\"failures\">")
                .append(now == null ? "–" : format(now.failed()) + " /s")
                .append("</dd><dt>Active connections</dt><dd>").append(now == null ? 0 : now.activeConnections())
                .append("</dd><dt>Since start</dt><dd>").append(totals == null ? 0 : totals.completed())
                .append(" completed, ").append(totals == null ? 0 : totals.failed()).append(" failed, ")
                .append(totals == null ? 0 : totals.retries()).append(" retried</dd>")
                .append("<dt>Queue</dt><dd class=\"queue\">").append(totals == null ? 0 : totals.queueLength())
                .append(" waiting").append(now == null || Double.isNaN(now.queueMillis()) ? ""
                        : ", " + format(now.queueMillis()) + " ms mean wait").append("</dd>")
                .append(groups(cluster.groups())).append("</dl>");
        b.append("<table class=\"nodes\"><thead><tr><th>Node</th><th>Address</th><th>Health</th><th>Weight</th>")
                .append("<th>Active</th><th>Requests</th><th>Failures</th><th>Graphs</th></tr></thead><tbody>");
        for (NodeStatus node : cluster.nodes()) {
            String health = health(node);
            b.append("<tr><td>").append(Html.text(node.name()))
                    .append(node.domain() == null ? "" : " <span class=\"tag domain\" title=\"replication domain\">"
                            + Html.text(node.domain()) + "</span>").append("</td><td>")
                    .append(Html.text(node.address().getHostString() + ":" + node.address().getPort()))
                    .append("</td><td><span class=\"health ").append(health.startsWith("up") ? "good" : "bad").append("\">")
                    .append(Html.text(health)).append("</span>").append(agentBadge(cluster.policy(), node))
                    .append(NodeStatus.GROUP_ACTIVE.equals(node.groupState()) ? ""
                            : " <span class=\"tag group-" + node.groupState() + "\">" + node.groupState() + "</span>")
                    .append("</td><td>").append(node.weight()).append("</td><td>")
                    .append(node.activeConnections()).append("</td><td>")
                    .append(node.counters().completed() + node.counters().failed())
                    .append("</td><td>").append(node.counters().failed()).append("</td><td><a href=\"/graphs?cluster=")
                    .append(Html.url(name)).append("&amp;node=").append(Html.url(node.name())).append("\">graphs</a></td></tr>");
        }
        b.append("</tbody></table><p><a href=\"/graphs?cluster=").append(Html.url(name))
                .append("\">Cluster graphs</a> · <a href=\"/clusters/edit?name=").append(Html.url(name))
                .append("\">Configure</a></p></section>");
        return b.toString();
    }

    /**
     * The priority groups, shown only when something is out of the ordinary: a group other than the preferred
     * one in use, or panic (nodes picked whatever their health).
     */
    static String groups(GroupStatus groups) {
        if (groups == null || !groups.panic() && groups.activePriority() == 0 && !groups.backupActive()) {
            return "";
        }
        String inUse = groups.backupActive() ? "down to the backup group" : "down to priority " + groups.activePriority();
        return "<dt>Priority groups</dt><dd class=\"groups\">In use " + inUse + " (" + groups.usableNodes() + " of "
                + groups.activeNodes() + " nodes usable)" + (groups.panic()
                ? " <span class=\"bad\">panic: picking every node that accepts connections</span>" : "") + "</dd>";
    }

    /** "draining (sessions: 3 sessions left, 12 pinned requests in the last minute)", "drained (immediate)", ... */
    static String drainState(DrainStatus drain) {
        if (drain == null) {
            return "draining";
        }
        StringBuilder b = new StringBuilder(drain.state()).append(" (").append(drain.mode().id());
        if (drain.mode() == DrainMode.SESSIONS && DrainStatus.DRAINING.equals(drain.state())) {
            b.append(": ").append(drain.sessionsLeft() < 0 ? "sessions unknown" : drain.sessionsLeft() + " sessions left")
                    .append(", ").append(drain.pinnedLastMinute()).append(" pinned requests in the last minute");
        }
        return b.append(')').toString();
    }

    /** A one-word state a newcomer can read: why a node takes no work, if it takes none. */
    static String health(NodeStatus node) {
        if (!node.enabled()) {
            return "disabled";
        }
        if (node.draining()) {
            return drainState(node.drain());
        }
        if (node.connectDown()) {
            return "down (connect failed)";
        }
        if (node.awaitingReadiness()) {
            return "down (application not ready)";
        }
        if (node.ejected()) {
            return "ejected until " + java.time.Instant.ofEpochMilli(node.ejectedUntilMillis())
                    .atZone(java.time.ZoneId.systemDefault()).toLocalTime().withNano(0);
        }
        if ("down".equals(node.health().state())) {
            HealthStatus.LastCheck last = node.health().lastCheck();
            return "down (health check" + (last == null || last.problem() == null ? "" : ": " + last.problem()) + ")";
        }
        if (node.healthy() && node.slowStartShare() < 1) {
            return "up (slow start " + Math.round(node.slowStartShare() * 100) + " %)";
        }
        return node.healthy() ? "up" : "down";
    }

    /**
     * " agent unknown" (or " agent unauthorized" when it refused the poll for want of the right secret) as
     * a badge, with the reason as its tooltip, when the cluster's policy reads agent metrics and has no
     * fresh sample from this node; otherwise nothing. The node still takes work.
     */
    static String agentBadge(PolicyStatus policy, NodeStatus node) {
        if (!policy.readsAgentMetrics() || node.agent().ok()) {
            return "";
        }
        String problem = node.agent().problem();
        String label = "agent " + node.agent().state();
        return " <span class=\"tag agent-unknown\" title=\"" + Html.text("No fresh agent metrics"
                + (problem == null ? "" : ": " + problem) + ". The node takes work; the policy treats it as unknown.")
                + "\">" + Html.text(label) + "</span>";
    }

    private static MetricsSnapshot latest(List<MetricsSnapshot> history) {
        return history == null || history.isEmpty() ? null : history.get(history.size() - 1);
    }

    static String format(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "–";
        }
        return String.format(Locale.ROOT, value >= 100 ? "%.0f" : "%.1f", value);
    }
}
