package io.loadwise.console.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;

/**
 * {@code /requests[?status=5xx][&cluster=C][&node=N][&route=R][&termination=NH][&limit=100]}: the dispatcher's last
 * requests, newest first (issue 33, item 6). The page is a filter form and an empty table; console.js fills the
 * table from {@code GET /api/requests} with the same query, and again every {@value #REFRESH_SECONDS} seconds, so
 * it updates without a reload. The API validates the filters and the script shows its 400 message; every value
 * the client sent reaches the page as text nodes, never as markup.
 */
final class RequestsPage {

    static final int REFRESH_SECONDS = 2;
    /** The query parameters passed on to the API, in this order. */
    static final List<String> FILTERS = List.of("status", "cluster", "node", "route", "termination", "limit");
    private static final List<String> STATUS_CLASSES = List.of("1xx", "2xx", "3xx", "4xx", "5xx");

    void get(HttpServletRequest request, HttpServletResponse response) throws IOException {
        StringBuilder query = new StringBuilder();
        for (String name : FILTERS) {
            String value = request.getParameter(name);
            if (value != null && !value.isEmpty()) {
                query.append(query.length() == 0 ? '?' : '&').append(name).append('=').append(Html.url(value));
            }
        }
        String status = value(request, "status");
        StringBuilder b = new StringBuilder("<h1>Live requests</h1><p class=\"hint\">The last requests the dispatcher ")
                .append("finished, newest first, kept in memory (at most 1,000, with or without an access log). ")
                .append("The table refreshes every ").append(REFRESH_SECONDS).append(" seconds.</p>")
                .append("<form class=\"filters\" method=\"get\" action=\"/requests\"><label>Status<select name=\"status\">")
                .append("<option value=\"\">any</option>");
        for (String c : STATUS_CLASSES) {
            b.append("<option").append(c.equals(status) ? " selected" : "").append('>').append(c).append("</option>");
        }
        b.append("</select></label>")
                .append(input("Cluster", "cluster", request))
                .append(input("Node", "node", request))
                .append(input("Route", "route", request))
                .append(input("Termination", "termination", request))
                .append(input("Limit", "limit", request))
                .append("<button type=\"submit\">Filter</button> <a href=\"/requests\">Clear</a></form>")
                .append("<p class=\"hint\" id=\"live-status\" role=\"status\">Loading…</p>")
                .append("<table class=\"live\" id=\"live-requests\" data-source=\"")
                .append(Html.text("/api/requests" + query)).append("\" data-refresh=\"").append(REFRESH_SECONDS)
                .append("\"><thead><tr><th>Time</th><th>Client</th><th>Method</th><th>Target</th><th>Status</th>")
                .append("<th title=\"Termination state\">Term.</th><th>Cluster</th><th>Node</th><th>Route</th>")
                .append("<th>Total ms</th><th>Bytes out</th><th>Request id</th></tr></thead><tbody></tbody></table>")
                .append("<p class=\"hint\">Termination states (who ended the request, in which phase) are listed in ")
                .append("<a href=\"/docs/operations\">Operations</a>.</p>");
        Layout.ok(request, response, "Live requests", "/requests", b.toString());
    }

    private static String value(HttpServletRequest request, String name) {
        String v = request.getParameter(name);
        return v == null ? "" : v;
    }

    private static String input(String label, String name, HttpServletRequest request) {
        return "<label>" + label + "<input name=\"" + name + "\" value=\"" + Html.text(value(request, name))
                + "\" size=\"" + (name.equals("limit") || name.equals("termination") ? 5 : 12) + "\"></label>";
    }
}
