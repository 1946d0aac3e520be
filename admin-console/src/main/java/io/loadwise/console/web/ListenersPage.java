package io.loadwise.console.web;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.HeaderEditsConfig;
import io.loadwise.dispatcher.config.ListenerConfig;
import io.loadwise.dispatcher.config.RateLimitConfig;
import io.loadwise.dispatcher.config.RouteConfig;
import io.loadwise.dispatcher.config.RouteMatch;
import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.ConfigConflictException;
import io.loadwise.dispatcher.control.ConfigUnavailableException;
import io.loadwise.dispatcher.control.RateLimitStatus;
import io.loadwise.dispatcher.control.RoutedListenerStatus;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code /listeners}: each of {@code listeners[]} with its route table (match, action, targets, filters) and each
 * route's requests by status class, the rate limits with their key tables, and an editor per listener for its route
 * table as JSON. A save goes through {@link ClusterControl#updateListener}: validated like the file (errors are
 * listed by field path), persisted, and the table swapped atomically.
 */
final class ListenersPage {

    /** Strict like the configuration parser: a duplicate key or text after the array is an error, not ignored. */
    private static final ObjectMapper STRICT = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private final ClusterControl control;

    ListenersPage(ClusterControl control) {
        this.control = control;
    }

    void list(HttpServletRequest request, HttpServletResponse response) throws IOException {
        show(request, response, 200, null, null, List.of());
    }

    /** POST {@code name} and {@code routes} (a JSON array): replaces that listener's route table. */
    void saveRoutes(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String name = String.valueOf(request.getParameter("name"));
        String text = request.getParameter("routes") == null ? "" : request.getParameter("routes");
        ListenerConfig inForce = configOf(name);
        if (inForce == null) {
            Layout.write(request, response, 404, "No such listener", "/listeners", "<h1>No listener named '"
                    + Html.text(name) + "'</h1><p><a href=\"/listeners\">Back to the listeners</a></p>");
            return;
        }
        List<String> errors = new ArrayList<>();
        try {
            control.updateListener(name, withRoutes(inForce, text));
            ClustersPage.setFlash(request, "Saved the route table of listener '" + name + "'.");
            Layout.redirect(response, "/listeners#listener-" + Html.url(name));
            return;
        } catch (ConfigValidationException e) {
            errors.addAll(e.errors());
        } catch (IllegalArgumentException | IllegalStateException | ConfigConflictException
                | ConfigUnavailableException e) {
            errors.add(e.getMessage()); // a conflict: another edit came first; etcd unreachable: nothing written
        }
        show(request, response, 400, name, text, errors);
    }

    /** The listener in force with its routes replaced by {@code text}, read by the configuration parser. */
    private static ListenerConfig withRoutes(ListenerConfig inForce, String text) throws ConfigValidationException {
        JsonNode routes;
        try {
            routes = STRICT.readTree(text);
        } catch (JsonProcessingException e) {
            String at = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr();
            throw new ConfigValidationException("routes: invalid JSON" + at + ": " + e.getOriginalMessage());
        }
        if (routes == null || !routes.isArray()) {
            throw new ConfigValidationException("routes: expected a JSON array of routes ([{...}, {...}])");
        }
        ObjectNode listener;
        try {
            listener = (ObjectNode) STRICT.readTree(ConfigLoader.toJson(inForce));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the listener in force does not serialise", e);
        }
        listener.set("routes", routes);
        return ConfigLoader.parseListener(listener.toString());
    }

    private void show(HttpServletRequest request, HttpServletResponse response, int status, String edited,
            String editedText, List<String> errors) throws IOException {
        Map<String, RoutedListenerStatus> running = new HashMap<>();
        for (RoutedListenerStatus s : control.listenerStatuses()) {
            running.put(s.name(), s);
        }
        StringBuilder b = new StringBuilder("<h1>Listeners</h1>").append(ClustersPage.flash(request))
                .append("<p class=\"hint\">Ports that serve several applications: each request takes the first route"
                        + " that matches it (<a href=\"/docs/routing\">routing</a>). Edit a route table as JSON below;"
                        + " it is checked like the configuration file and swapped at once.</p>");
        List<ListenerConfig> listeners = control.config().listenersOrEmpty();
        if (listeners.isEmpty()) {
            b.append("<p class=\"hint\" id=\"no-listeners\">No listeners are configured.</p>");
        }
        for (ListenerConfig listener : listeners) {
            boolean mine = listener.name().equals(edited);
            b.append(card(request, listener, running.get(listener.name()), mine ? editedText : null,
                    mine ? errors : List.of()));
        }
        b.append(rateLimits());
        Layout.write(request, response, status, "Listeners", "/listeners", b.toString());
    }

    private static String card(HttpServletRequest request, ListenerConfig listener, RoutedListenerStatus status,
            String editedText, List<String> errors) {
        String name = listener.name();
        StringBuilder b = new StringBuilder("<section class=\"card listener\" id=\"listener-").append(Html.text(name))
                .append("\"><h3>").append(Html.text(name)).append("</h3><p>Listens on <code>")
                .append(Html.text(listener.listen())).append("</code>");
        if (status != null && status.bound() != null) {
            b.append(" · bound <code class=\"bound\">").append(Html.text(status.bound())).append("</code> · ")
                    .append(status.connections()).append(status.connections() == 1 ? " connection" : " connections")
                    .append(" open · ")
                    .append("<span class=\"rejected\">").append(status.rejectedPerClient())
                    .append("</span> refused per client");
        } else {
            b.append(" · <b>not bound</b>");
        }
        b.append(listener.tls() != null ? " · TLS" : "").append("</p>");
        if (status != null) {
            b.append(EdgeCounts.proxyProtocol(status.proxyProtocol())).append(EdgeCounts.http3(status.http3()));
        }
        b.append("<table class=\"routes\"><thead><tr><th>#</th><th>Route</th><th>Match</th><th>Action</th>")
                .append("<th>Targets</th><th>Filters</th><th>Requests</th><th>2xx</th><th>3xx</th><th>4xx</th>")
                .append("<th>5xx</th></tr></thead><tbody>");
        List<RouteConfig> routes = listener.routesOrEmpty();
        for (int i = 0; i < routes.size(); i++) {
            RouteConfig route = routes.get(i);
            RoutedListenerStatus.RouteStatus counted = routeAt(status, i);
            b.append("<tr id=\"route-").append(Html.text(name)).append('-').append(i).append("\"><td>").append(i)
                    .append("</td><td class=\"route-name\">")
                    .append(Html.text(route.name() != null ? route.name() : name + "/" + i))
                    .append("</td><td class=\"match\">").append(Html.text(match(route.match())))
                    .append("</td><td class=\"action\">").append(Html.text(action(route)))
                    .append("</td><td class=\"targets\">").append(Html.text(targets(route)))
                    .append("</td><td class=\"filters\">").append(Html.text(filters(route)))
                    .append("</td><td class=\"requests\">").append(counted == null ? 0 : counted.requests());
            for (int k = 1; k <= 4; k++) {
                b.append("</td><td class=\"c").append(k + 1).append("xx\">")
                        .append(counted == null ? 0 : counted.byStatusClass().get(k));
            }
            b.append("</td></tr>");
        }
        b.append("</tbody></table>");
        if (!errors.isEmpty()) {
            b.append("<div class=\"error\" id=\"route-errors-").append(Html.text(name))
                    .append("\" role=\"alert\"><p>Nothing was changed:</p><ul>");
            for (String error : errors) {
                int colon = error.indexOf(": ");
                String field = colon > 0 && !error.substring(0, colon).contains(" ") ? error.substring(0, colon) : "";
                b.append("<li class=\"field-error\" data-field=\"").append(Html.text(field)).append("\">");
                if (field.isEmpty()) {
                    b.append(Html.text(error));
                } else {
                    b.append("<code>").append(Html.text(field)).append("</code>: ")
                            .append(Html.text(error.substring(colon + 2)));
                }
                b.append("</li>");
            }
            b.append("</ul></div>");
        }
        String text = editedText != null ? editedText : ConfigLoader.toJson(routes);
        b.append("<form method=\"post\" action=\"/listeners/routes\" class=\"route-editor\">")
                .append(Layout.csrfField(request))
                .append("<input type=\"hidden\" name=\"name\" value=\"").append(Html.text(name)).append("\">")
                .append("<label for=\"routes-").append(Html.text(name))
                .append("\">Route table (JSON: add, remove or reorder entries; first match wins)</label>")
                .append("<textarea name=\"routes\" id=\"routes-").append(Html.text(name))
                .append("\" rows=\"").append(Math.min(30, Math.max(6, text.split("\n", -1).length + 1)))
                .append("\" cols=\"100\" spellcheck=\"false\">").append(Html.text(text)).append("</textarea>")
                .append("<p><button type=\"submit\" class=\"save-routes\" id=\"save-routes-").append(Html.text(name))
                .append("\">Save route table</button></p></form></section>");
        return b.toString();
    }

    private String rateLimits() {
        Map<String, RateLimitConfig> configured = control.config().rateLimitsOrEmpty();
        StringBuilder b = new StringBuilder("<h2>Rate limits</h2>");
        if (configured.isEmpty()) {
            return b.append("<p class=\"hint\">None configured.</p>").toString();
        }
        b.append("<table class=\"rate-limits\" id=\"rate-limits\"><thead><tr><th>Name</th><th>Key</th>")
                .append("<th>Requests/s</th><th>Burst</th><th>Enforced here</th><th>Keys</th><th>Table</th>")
                .append("<th>Answered 429</th></tr></thead><tbody>");
        for (RateLimitStatus s : control.rateLimitStatuses()) {
            b.append("<tr id=\"rate-limit-").append(Html.text(s.name())).append("\"><td>").append(Html.text(s.name()))
                    .append("</td><td>").append(Html.text(s.key())).append("</td><td>")
                    .append(Html.text(number(s.requestsPerSecond()))).append("</td><td>").append(s.burst())
                    .append("</td><td class=\"enforced\">").append(Html.text(number(s.enforcedRequestsPerSecond())))
                    .append("/s (1/").append(s.replicas()).append(" of ").append(s.replicas() == 1 ? "1 replica"
                            : s.replicas() + " replicas").append(")</td><td>").append(s.keys()).append(" of ")
                    .append(s.maxKeys()).append("</td><td class=\"table-bytes\">")
                    .append(Html.text(kib(s.tableBytes()))).append("</td><td class=\"limited\">").append(s.limited())
                    .append("</td></tr>");
        }
        return b.append("</tbody></table><p class=\"hint\">Edit rate limits through <code>PUT /api/rate-limits</code>"
                + " or the configuration file.</p>").toString();
    }

    private ListenerConfig configOf(String name) {
        for (ListenerConfig listener : control.config().listenersOrEmpty()) {
            if (listener.name().equals(name)) {
                return listener;
            }
        }
        return null;
    }

    private static RoutedListenerStatus.RouteStatus routeAt(RoutedListenerStatus status, int index) {
        if (status == null) {
            return null;
        }
        for (RoutedListenerStatus.RouteStatus route : status.routes()) {
            if (route.index() == index) {
                return route;
            }
        }
        return null;
    }

    static String match(RouteMatch match) {
        if (match == null || match.isEmpty()) {
            return "every request";
        }
        List<String> parts = new ArrayList<>();
        add(parts, "host ", match.host());
        add(parts, "path ", match.path());
        add(parts, "prefix ", match.pathPrefix());
        add(parts, "regex ", match.pathRegex());
        if (!match.methodsOrEmpty().isEmpty()) {
            parts.add(String.join("|", match.methodsOrEmpty()));
        }
        match.headersOrEmpty().forEach((header, value) -> parts.add("header " + header
                + (value == null || value.presenceOnly() ? "" : "=" + value.exact())));
        if (match.query() != null) {
            match.query().forEach((param, value) -> parts.add("query " + param
                    + (value == null || value.presenceOnly() ? "" : "=" + value.exact())));
        }
        return String.join(", ", parts);
    }

    static String action(RouteConfig route) {
        if (route.cluster() != null) {
            return "cluster";
        }
        if (route.split() != null) {
            return "split";
        }
        if (route.redirect() != null) {
            return "redirect " + route.redirect().statusOrDefault();
        }
        return route.respond() != null ? "respond " + route.respond().status() : "";
    }

    static String targets(RouteConfig route) {
        if (route.cluster() != null) {
            return route.cluster();
        }
        if (route.split() != null) {
            List<String> parts = new ArrayList<>();
            for (RouteConfig.SplitTarget t : route.split()) {
                parts.add(t == null ? "?" : t.cluster() + " " + t.weight());
            }
            return String.join(", ", parts);
        }
        if (route.redirect() != null) {
            RouteConfig.RedirectConfig r = route.redirect();
            List<String> parts = new ArrayList<>();
            add(parts, "scheme ", r.scheme());
            add(parts, "host ", r.host());
            add(parts, "port ", r.port());
            add(parts, "path ", r.path());
            add(parts, "prefix ", r.pathPrefix());
            return String.join(", ", parts);
        }
        return "";
    }

    static String filters(RouteConfig route) {
        List<String> parts = new ArrayList<>();
        if (route.rewrite() != null) {
            add(parts, "rewrite prefix → ", route.rewrite().pathPrefix());
            add(parts, "rewrite host → ", route.rewrite().host());
        }
        edits(parts, "request", route.requestHeaders());
        edits(parts, "response", route.responseHeaders());
        add(parts, "rate limit ", route.rateLimit());
        return String.join(", ", parts);
    }

    private static void edits(List<String> parts, String side, HeaderEditsConfig edits) {
        if (edits == null) {
            return;
        }
        if (edits.set() != null && !edits.set().isEmpty()) {
            parts.add(side + " headers set " + String.join(" ", edits.set().keySet()));
        }
        if (edits.add() != null && !edits.add().isEmpty()) {
            parts.add(side + " headers add " + String.join(" ", edits.add().keySet()));
        }
        if (edits.remove() != null && !edits.remove().isEmpty()) {
            parts.add(side + " headers remove " + String.join(" ", edits.remove()));
        }
    }

    private static void add(List<String> parts, String label, Object value) {
        if (value != null) {
            parts.add(label + value);
        }
    }

    private static String number(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
    }

    private static String kib(long bytes) {
        return bytes < 10 * 1024 ? bytes + " bytes" : String.format(java.util.Locale.ROOT, "%.1f KiB", bytes / 1024.0);
    }
}
